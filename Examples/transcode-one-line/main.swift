import PushTranscoder

let line = #"{"From_Account":"alice","To_Account":"bob","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hello"}}]}"#
let transcoder = try Transcoder(options: TranscoderOptions(vendors: [Vendor(name: "fcm")!]))
for record in transcoder.transcode(line: line) {
  print(record.text)
}
