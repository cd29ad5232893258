#!/usr/bin/env python3
"""Writes the edge-case corpus Corpus/messages/*.ndjson (golden-test inputs).

Run from the package root: python3 Corpus/make_messages.py. The output is committed; the
golden files in Corpus/golden/ are rendered from it by `UPDATE_GOLDEN=1 swift test --filter
Golden`. Lengths of the budget and cap cases are computed here, from SPEC 4's payload shapes.
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "messages")


def j(value):
    """Compact JSON, UTF-8 as is; `num(...)` values are written as the raw JSON text given."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for lexeme, marker in NUMS.items():
        text = text.replace('"%s"' % marker, lexeme)
    return text


NUMS = {}


def num(lexeme):
    NUMS.setdefault(lexeme, "@raw%d@" % len(NUMS))
    return NUMS[lexeme]


def esc(text):
    """A JSON string literal with every non-ASCII scalar escaped (surrogate pairs above BMP)."""
    return json.dumps(text, ensure_ascii=True)


def write(name, lines, bom=False, crlf=()):
    data = bytearray(b"\xef\xbb\xbf" if bom else b"")
    for index, line in enumerate(lines):
        raw = line if isinstance(line, bytes) else line.encode("utf-8")
        data += raw + (b"\r\n" if index in crlf else b"\n")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def text(t):
    return {"MsgType": "TIMTextElem", "MsgContent": {"Text": t}}


def custom(desc=None, ext=None, sound=None):
    c = {"Data": "d"}
    if desc is not None: c["Desc"] = desc
    if ext is not None: c["Ext"] = ext
    if sound is not None: c["Sound"] = sound
    return {"MsgType": "TIMCustomElem", "MsgContent": c}


def elem(kind):
    return {"MsgType": kind, "MsgContent": {"UUID": "x"}}


def tmsg(body, key=None, sender="u_plain", to="u_to", group=None, info=None, **extra):
    m = {}
    if sender is not None: m["From_Account"] = sender
    if to is not None: m["To_Account"] = to
    if group is not None: m["GroupId"] = group
    if key is not None: m["MsgKey"] = key
    m["MsgBody"] = body
    if info is not None: m["OfflinePushInfo"] = info
    m.update(extra)
    return j(m)


# ---------------------------------------------------------------------------------------------
directory = [
    '{"To_Account":"user_nick","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":"Nickname"}]}',
    '{"To_Account":"u_alice","ProfileItem":[{"Tag":"Tag_Profile_IM_Gender","Value":"Gender_Type_Female"},{"Tag":"Tag_Profile_IM_Nick","Value":"Alice"}]}',
    '{"To_Account":"u_quote","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":"Bo \\"B\\" \\\\ \\u00e9\\/"}]}',
    '{"To_Account":"u_nonick","ProfileItem":[{"Tag":"Tag_Profile_IM_Gender","Value":"Gender_Type_Male"}]}',
    '{"To_Account":"u_emptynick","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":""}]}',
    '{"To_Account":"u_over","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":"Old"}]}',
    '{"To_Account":"u_over","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":"New"}]}',
    '{"To_Account":"u_long","ProfileItem":[{"Tag":"Tag_Profile_IM_Nick","Value":"' + "长" * 60 + '"}]}',
    '{"GroupId":"g_team","Name":"Team"}',
    '{"GroupId":"g_noname"}',
    '{"GroupId":"g_emptyname","Name":""}',
    '{"GroupId":"g_zh","Name":"项目组👨‍👩‍👧"}',
    '{"username":"em_jane","nickname":"Jane"}',
    '{"username":"em_nonick"}',
    '{"username":"6001","nickname":"Jane Doe"}',
    # Group names of split-refusals.ndjson (written by hand): one too long for harmony's budget.
    '{"GroupId":"g_huge","Name":"' + "N" * 4100 + '"}',
    '{"GroupId":"g_longname","Name":"GroupName-GroupName-GroupName-GroupName"}',
]
os.makedirs(OUT, exist_ok=True)
write("directory.ndjson", directory)

# ---------------------------------------------------------------------------------------------
ALL_TYPES = ["TIMTextElem", "TIMLocationElem", "TIMFaceElem", "TIMCustomElem", "TIMSoundElem",
             "TIMImageElem", "TIMFileElem", "TIMVideoFileElem", "TIMRelayElem", "TIMFutureElem"]
lines = [
    # SPEC 3.1 / issue 3: the documented worked example.
    tmsg([custom("hello", "www.qq.com", "dingdong.aiff"), text("world")], key="k-doc",
         sender="user_nick", to="u_to"),
]
for kind in ALL_TYPES:
    if kind == "TIMTextElem":
        body = [text("only text")]
    elif kind == "TIMCustomElem":
        body = [custom("custom desc")]
    else:
        body = [elem(kind)]
    lines.append(tmsg(body, key="k-one-" + kind))
# Each placeholder between texts (concatenated with no separator), unknown one counted.
lines.append(tmsg([text("a")] + [elem(k) for k in ALL_TYPES if k not in ("TIMTextElem", "TIMCustomElem")]
                  + [custom("D"), text("z")], key="k-all"))
# Elements without MsgContent (allowed for placeholders).
lines.append(tmsg([{"MsgType": "TIMImageElem"}, {"MsgType": "TIMFaceElem", "MsgContent": None}], key="k-nocontent"))
# Only an unknown element: empty text, no title -> skip empty-text (unknown counted).
lines.append(tmsg([elem("TIMFutureElem")], key="k-unknown-only"))
# Two custom elements: ext/sound from the first only; both Descs in the text.
lines.append(tmsg([custom("one", "ext-1", "s1.caf"), custom("two", "ext-2", "s2.caf")], key="k-two-custom"))
# First custom without Ext/Sound, second with: no ext, no sound.
lines.append(tmsg([custom("one"), custom("two", "ext-2", "s2.caf")], key="k-first-custom-bare"))
# Custom without Desc between texts.
lines.append(tmsg([text("x"), custom(None, "e"), text("y")], key="k-custom-nodesc-mixed"))
# Custom with empty Desc and Ext: absent.
lines.append(tmsg([text("t"), custom("", "", "")], key="k-custom-empty-fields"))
# Text with characters that JSON escapes.
lines.append(tmsg([text('quote " back \\ slash / nl \n tab \t ctl \u0001 del \u007f ls \u2028')], key="k-escapes"))
write("tencent-elements.ndjson", lines)

# ---------------------------------------------------------------------------------------------
lines = [
    # C2C with nickname: nick:text.
    tmsg([text("hi")], key="d-c2c-nick", sender="user_nick"),
    # C2C, sender without nickname / empty nickname / not in directory / no sender: plain.
    tmsg([text("hi")], key="d-c2c-nonick", sender="u_nonick"),
    tmsg([text("hi")], key="d-c2c-emptynick", sender="u_emptynick"),
    tmsg([text("hi")], key="d-c2c-unknown", sender="u_stranger"),
    tmsg([text("hi")], key="d-c2c-nosender", sender=None),
    # Later directory entry overrides.
    tmsg([text("hi")], key="d-c2c-override", sender="u_over"),
    # Nickname with characters JSON escapes.
    tmsg([text("hi")], key="d-c2c-quote", sender="u_quote"),
    # Sender id given with escapes finds the same user.
    '{"From_Account":"u\\u005falice","To_Account":"u_to","MsgKey":"d-c2c-escaped-id","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hi"}}]}',
    # Group: nick(gname):text, nick:text, (gname):text, text.
    tmsg([text("hi")], key="d-group-both", sender="u_alice", to=None, group="g_team"),
    tmsg([text("hi")], key="d-group-nonname", sender="u_alice", to=None, group="g_noname"),
    tmsg([text("hi")], key="d-group-emptyname", sender="u_alice", to=None, group="g_emptyname"),
    tmsg([text("hi")], key="d-group-gname-only", sender="u_nonick", to=None, group="g_team"),
    tmsg([text("hi")], key="d-group-neither", sender="u_nonick", to=None, group="g_unknown"),
    tmsg([text("hi")], key="d-group-zh", sender="u_alice", to=None, group="g_zh"),
    # GroupId wins over To_Account; empty GroupId means C2C.
    tmsg([text("hi")], key="d-group-wins", sender="u_alice", to=["u1", "u2"], group="g_team"),
    tmsg([text("hi")], key="d-group-empty", sender="u_alice", to="u1", group=""),
    # Explicit Desc: never prefixed.
    tmsg([text("hi")], key="d-desc", sender="u_alice", to=None, group="g_team", info={"Desc": "explicit"}),
    # Title: titled vendors get no prefix, the required-title vendors use it.
    tmsg([text("hi")], key="d-title", sender="u_alice", to=None, group="g_team", info={"Title": "T"}),
    # ApnsInfo.Title only: apns titled (no prefix), fcm/huawei/honor prefixed.
    tmsg([text("hi")], key="d-apns-title", sender="user_nick", info={"ApnsInfo": {"Title": "AT"}}),
    # ApnsInfo.SubTitle only: apns alert dict, body keeps the prefix.
    tmsg([text("hi")], key="d-apns-subtitle", sender="user_nick", info={"ApnsInfo": {"SubTitle": "ST"}}),
    # HarmonyInfo.Title only: harmony title from it, the others prefixed.
    tmsg([text("hi")], key="d-harmony-title", sender="user_nick", info={"HarmonyInfo": {"Title": "HT"}}),
    # Fallback titles: C2C nickname (long: capped), group name, default.
    tmsg([text("hi")], key="d-fallback-long-nick", sender="u_long"),
    tmsg([text("hi")], key="d-fallback-group-noname", sender="user_nick", to=None, group="g_noname"),
]
write("tencent-display.ndjson", lines)

# ---------------------------------------------------------------------------------------------
FULL_ANDROID = {"Sound": "a.mp3", "HuaWeiChannelID": "hw-ch", "HuaWeiCategory": "IM",
                "HuaWeiImportance": "NORMAL", "HuaWeiImage": "https://x/hw.png",
                "HonorImportance": "LOW", "HonorImage": "https://x/ho.png",
                "GoogleImage": "https://x/g.png", "GooglePriority": "normal",
                "GoogleChannelID": "g-ch", "XiaoMiChannelID": "mi-ch", "OPPOChannelID": "op-ch",
                "OPPOCategory": "IM", "VIVOCategory": "IM", "OPPONotifyLevel": 2,
                "VIVOClassification": 1, "VIVONotifyType": 2, "MeiZuNoticeMsgType": 1}
FULL_APNS = {"Sound": "ap.caf", "Title": "apns title", "SubTitle": "sub", "Image": "https://x/a.png",
             "InterruptionLevel": "time-sensitive", "MutableContent": 1, "ContentAvailable": 1,
             "IsVoipPush": 0, "BadgeMode": 1}
FULL_HARMONY = {"Title": "hm title", "Category": "WORK", "Image": "https://x/hm.png",
                "Sound": "hm.mp3", "SoundDuration": 7}
lines = [
    # Every OfflinePushInfo key at once.
    tmsg([custom("cd", "custom-ext", "custom.caf"), text("tt")], key="o-full", info={
        "PushFlag": 0, "Title": "Title!", "Desc": "Desc!", "Ext": "{\"k\":\"v\"}", "BadgeSetNum": 5,
        "ApnsInfo": FULL_APNS, "AndroidInfo": FULL_ANDROID, "HarmonyInfo": FULL_HARMONY}),
    # Every key but titles and Desc: element text, prefixes where untitled.
    tmsg([text("tt")], key="o-full-untitled", sender="user_nick", info={
        "Ext": "e", "BadgeAddNum": 2,
        "ApnsInfo": {k: v for k, v in FULL_APNS.items() if k != "Title"},
        "AndroidInfo": FULL_ANDROID,
        "HarmonyInfo": {k: v for k, v in FULL_HARMONY.items() if k != "Title"}}),
    # Badges: add only; set beats add; zero and negative lexemes kept.
    tmsg([text("b")], key="o-badge-add", info={"BadgeAddNum": 3}),
    tmsg([text("b")], key="o-badge-both", info={"BadgeSetNum": 1, "BadgeAddNum": 3}),
    tmsg([text("b")], key="o-badge-zero", info={"BadgeSetNum": 0}),
    tmsg([text("b")], key="o-badge-negative", info={"BadgeAddNum": -1}),
    # Flags: only == 1 writes them.
    tmsg([text("f")], key="o-flags-zero", info={"ApnsInfo": {"MutableContent": 0, "ContentAvailable": 2}}),
    # Numbers 0 written (vivo notifyType 0, classification 0, oppo level 0, meizu 0, duration 0).
    tmsg([text("n")], key="o-zero-numbers", info={"AndroidInfo": {"OPPONotifyLevel": 0, "VIVOClassification": 0,
         "VIVONotifyType": 0, "MeiZuNoticeMsgType": 0}, "HarmonyInfo": {"SoundDuration": 0}}),
    # OfflinePushInfo present: custom Ext/Sound ignored, Desc still forms the text.
    tmsg([custom("cd", "custom-ext", "custom.caf")], key="o-info-ignores-custom", info={}),
    tmsg([custom("cd", "custom-ext", "custom.caf")], key="o-info-pushflag0", info={"PushFlag": 0}),
    # OfflinePushInfo.Ext replaces, sound only from ApnsInfo.
    tmsg([custom("cd", "custom-ext", "custom.caf")], key="o-info-ext", info={"Ext": "info-ext", "ApnsInfo": {"Sound": "s.caf"}}),
    # Empty strings and nulls are absent.
    tmsg([text("e")], key="o-empty-strings", info={"Title": "", "Desc": "", "Ext": "",
         "ApnsInfo": {"Sound": "", "Title": "", "SubTitle": "", "Image": "", "InterruptionLevel": ""},
         "AndroidInfo": {k: "" for k, v in FULL_ANDROID.items() if isinstance(v, str)},
         "HarmonyInfo": {"Title": "", "Category": "", "Image": "", "Sound": ""}}),
    tmsg([text("n")], key="o-nulls", info={"Title": None, "Desc": None, "Ext": None, "PushFlag": None,
         "BadgeSetNum": None, "ApnsInfo": None, "AndroidInfo": {k: None for k in FULL_ANDROID},
         "HarmonyInfo": None}, GroupId=None, MsgId=None),
    '{"From_Account":null,"To_Account":"u_to","MsgKey":null,"MsgId":"o-null-key","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"n"}}],"OfflinePushInfo":null}',
    # Keys: MsgKey, else MsgId, else null; empty MsgKey is absent.
    '{"To_Account":"u_to","MsgId":"o-msgid","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"k"}}]}',
    '{"To_Account":"u_to","MsgKey":"","MsgId":"o-msgid-after-empty-key","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"k"}}]}',
    '{"To_Account":"u_to","MsgKey":"o-both-key","MsgId":"o-both-id","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"k"}}]}',
    '{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"no key at all"}}]}',
    # Duplicate keys: last value wins (nested, top level, inside OfflinePushInfo).
    '{"To_Account":"u_first","MsgKey":"o-dup","To_Account":"u_last","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"first","Text":"last"}}],"OfflinePushInfo":{"Title":"t1","Title":"t2","PushFlag":1,"PushFlag":0}}',
    '{"MsgBody":"not an array","To_Account":"u_to","MsgKey":"o-dup-body","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"the last MsgBody"}}]}',
    # Title with an empty MsgBody: pushed with an empty body.
    tmsg([], key="o-title-empty-body", info={"Title": "Only a title"}),
    # Desc with an empty MsgBody.
    tmsg([], key="o-desc-empty-body", info={"Desc": "Only a desc"}),
    # Desc makes a custom-only message push.
    tmsg([custom(None, "x")], key="o-desc-custom-only", info={"Desc": "from info"}),
    # Unknown keys anywhere are skipped.
    '{"MsgSeq":"not read","MsgRandom":{"deep":[1,2,{"x":null}]},"To_Account":"u_to","MsgKey":"o-unknown-keys","MsgTime":"not read","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"u","Extra":[true,false]}}],"OfflinePushInfo":{"MultiLanguageContent":{"en":"x"},"ApnsInfo":{"BadgeMode":"any"},"Whatever":1}}',
    # Ext JSON-looking text.
    tmsg([text("x")], key="o-ext-json-text", info={"Ext": "{\"a\":[1,2],\"u\":\"\\/p\"}"}),
    # Recipients: array order and duplicates kept, empty strings dropped.
    tmsg([text("r")], key="o-recipients", to=["b", "a", "", "b"]),
]
write("tencent-overrides.ndjson", lines)

# ---------------------------------------------------------------------------------------------
lines = [
    tmsg([text("secret")], key="s-pushflag1", info={"PushFlag": 1}),
    tmsg([text("pushed")], key="s-pushflag2", info={"PushFlag": 2}),
    tmsg([custom(None, "x")], key="s-pushflag1-custom", info={"PushFlag": 1}),
    tmsg([custom(None, "x", "s")], key="s-custom-no-desc"),
    tmsg([custom("", "x")], key="s-custom-empty-desc"),
    tmsg([custom(None, "x")], key="s-custom-with-title", info={"Title": "T"}),
    tmsg([custom(None, "x")], key="s-custom-empty-info-desc", info={"Desc": ""}),
    tmsg([custom(None, "x"), custom(None, "y")], key="s-two-customs-no-desc"),
    tmsg([], key="s-empty-body"),
    tmsg([elem("TIMFutureElem"), elem("TIMOtherElem")], key="s-unknown-only"),
    tmsg([], key="s-empty-body-empty-title", info={"Title": ""}),
    # PushFlag 1 beats the reject? No: a reject wins over a skip.
    tmsg([text("x")], key="s-reject-wins", info={"PushFlag": 1, "Title": 5}),
]
write("tencent-skips.ndjson", lines)

# ---------------------------------------------------------------------------------------------
T = '{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]'
lines = [
    "[]", "42", '"str"', "null", '{"hello":"world"}', '{}',
    '{"MsgBody":null,"To_Account":"u"}',
    '{"MsgBody":{},"To_Account":"u"}',
    '{"MsgBody":[1],"To_Account":"u"}',
    '{"MsgBody":[{}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":7}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":""}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMTextElem"}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{}}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":1}}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":""}}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMCustomElem","MsgContent":"x"}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMCustomElem"}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMCustomElem","MsgContent":{"Desc":1}}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMCustomElem","MsgContent":{"Desc":"d","Ext":{}}}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMCustomElem","MsgContent":{"Desc":"d","Sound":false}}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMImageElem","MsgContent":[]}],"To_Account":"u"}',
    '{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}},{"MsgType":"TIMTextElem","MsgContent":{"Text":null}}],"To_Account":"u"}',
    T + ',"From_Account":1}',
    T + ',"GroupId":2}',
    T + ',"MsgKey":3}',
    T + ',"MsgId":false}',
    '{"To_Account":5,"MsgBody":[]}',
    '{"To_Account":["a",5],"MsgBody":[]}',
    '{"To_Account":"","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}',
    '{"To_Account":[],"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}',
    '{"To_Account":[""],"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}',
    '{"MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}',
    '{"GroupId":"","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"x"}}]}',
    '{"To_Account":null,"MsgBody":[]}',
    T + ',"OfflinePushInfo":"x"}',
    T + ',"OfflinePushInfo":{"PushFlag":"1"}}',
    T + ',"OfflinePushInfo":{"PushFlag":1.0}}',
    T + ',"OfflinePushInfo":{"PushFlag":1e0}}',
    T + ',"OfflinePushInfo":{"PushFlag":true}}',
    T + ',"OfflinePushInfo":{"PushFlag":-0}}',
    T + ',"OfflinePushInfo":{"BadgeSetNum":1.5}}',
    T + ',"OfflinePushInfo":{"BadgeAddNum":"2"}}',
    T + ',"OfflinePushInfo":{"Title":5}}',
    T + ',"OfflinePushInfo":{"Desc":[]}}',
    T + ',"OfflinePushInfo":{"Ext":{"a":1}}}',
    T + ',"OfflinePushInfo":{"ApnsInfo":[]}}',
    T + ',"OfflinePushInfo":{"ApnsInfo":{"Sound":1}}}',
    T + ',"OfflinePushInfo":{"ApnsInfo":{"IsVoipPush":"1"}}}',
    T + ',"OfflinePushInfo":{"ApnsInfo":{"MutableContent":true}}}',
    T + ',"OfflinePushInfo":{"ApnsInfo":{"ContentAvailable":1.0}}}',
    T + ',"OfflinePushInfo":{"ApnsInfo":{"InterruptionLevel":2}}}',
    T + ',"OfflinePushInfo":{"ApnsInfo":{"LiveActivity":"x"}}}',
    T + ',"OfflinePushInfo":{"AndroidInfo":"x"}}',
    T + ',"OfflinePushInfo":{"AndroidInfo":{"HuaWeiImage":5}}}',
    T + ',"OfflinePushInfo":{"AndroidInfo":{"OPPONotifyLevel":"1"}}}',
    T + ',"OfflinePushInfo":{"AndroidInfo":{"VIVONotifyType":4.0}}}',
    T + ',"OfflinePushInfo":{"AndroidInfo":{"MeiZuNoticeMsgType":1E0}}}',
    T + ',"OfflinePushInfo":{"HarmonyInfo":{"SoundDuration":1.0}}}',
    T + ',"OfflinePushInfo":{"HarmonyInfo":{"Category":[]}}}',
    T + ',"OfflinePushInfo":{"HarmonyInfo":7}}',
    # A wrong type in a field only read for vendors not selected is still a reject.
    T + ',"OfflinePushInfo":{"AndroidInfo":{"XiaoMiChannelID":1}}}',
    # Syntax, UTF-8, depth.
    T,
    T + '}}',
    '{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"bad \\x"}}]}',
    b'{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"bad \xff byte"}}]}',
    b'{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"overlong \xc0\xaf"}}]}',
    '{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"lone \\ud800 high"}}]}',
    '{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"lone \\udc00 low"}}]}',
    '{"a":' * 512 + '1' + '}' * 512,
    '[' * 513 + ']' * 513,
    '{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"tab\tinside"}}]}',
    '{"To_Account":"u_to","MsgBody":[],"n":01}',
    "",
    "   \t ",
    "\r",
    # Not rejects: deep but legal unknown value (512 levels) on a message.
    '{"To_Account":"u_to","MsgKey":"deep-ok","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"deep"}}],"x":' + '[' * 510 + ']' * 510 + '}',
]
write("tencent-rejects.ndjson", lines, crlf=(2,))

# ---------------------------------------------------------------------------------------------
LA = {"LaId": "la-1", "Event": "update", "ContentState": {"score": [1, num("2.50"), num("1e3"), num("-0.0"), num("1E+2")], "s": "a\\/b", "n": None, "t": True,
                 "esc": num('"\\u00e9\\/\\u0041\\n"')}}
lines = [
    tmsg([text("ring")], key="a-voip", info={"ApnsInfo": {"IsVoipPush": 1, "Sound": "r.caf"}}),
    tmsg([text("ring")], key="a-voip-zero", info={"ApnsInfo": {"IsVoipPush": 0}}),
    tmsg([text("live")], key="a-la-stamp", MsgTimeStamp=1700000000, info={"ApnsInfo": {"LiveActivity": LA}}),
    tmsg([text("live")], key="a-la-time", sender="user_nick", MsgTime=1700000001, info={"ApnsInfo": {"LiveActivity": LA}}),
    tmsg([text("live")], key="a-la-both", MsgTime=2, MsgTimeStamp=1, info={"ApnsInfo": {"LiveActivity": LA}}),
    tmsg([text("live")], key="a-la-missing-ts", info={"ApnsInfo": {"LiveActivity": LA}}),
    tmsg([text("live")], key="a-la-null-ts", MsgTimeStamp=None, info={"ApnsInfo": {"LiveActivity": LA}}),
    tmsg([text("live")], key="a-la-and-voip", MsgTimeStamp=3, info={"ApnsInfo": {"IsVoipPush": 1, "LiveActivity": LA}}),
    tmsg([text("live")], key="a-la-everything", MsgTimeStamp=4, info={
        "Title": "LT", "Ext": "ex", "BadgeSetNum": 2,
        "ApnsInfo": {"Sound": "s", "SubTitle": "sub", "Image": "i", "MutableContent": 1, "ContentAvailable": 1,
                     "InterruptionLevel": "active",
                     "LiveActivity": dict(LA, DismissalDate=1700003600, ContentState="a string state")}}),
    tmsg([text("live")], key="a-la-apns-title", MsgTimeStamp=5, info={"ApnsInfo": {"Title": "AT", "LiveActivity": dict(LA, ContentState=0)}}),
    # Timestamp type-checked only with a Live Activity.
    tmsg([text("no la")], key="a-string-ts-no-la", MsgTimeStamp="x", MsgTime=1.5),
    tmsg([text("la")], key="a-la-string-ts", MsgTimeStamp="x", info={"ApnsInfo": {"LiveActivity": LA}}),
    tmsg([text("la")], key="a-la-float-time", MsgTime=1.0, info={"ApnsInfo": {"LiveActivity": LA}}),
    tmsg([text("la")], key="a-la-no-laid", MsgTimeStamp=1, info={"ApnsInfo": {"LiveActivity": {"Event": "e", "ContentState": {}}}}),
    tmsg([text("la")], key="a-la-no-event", MsgTimeStamp=1, info={"ApnsInfo": {"LiveActivity": {"LaId": "l", "ContentState": {}}}}),
    tmsg([text("la")], key="a-la-null-state", MsgTimeStamp=1, info={"ApnsInfo": {"LiveActivity": {"LaId": "l", "Event": "e", "ContentState": None}}}),
    tmsg([text("la")], key="a-la-bad-dismissal", MsgTimeStamp=1, info={"ApnsInfo": {"LiveActivity": dict(LA, DismissalDate="tomorrow")}}),
    # Interruption level alone, content-available alone.
    tmsg([text("x")], key="a-interruption", info={"ApnsInfo": {"InterruptionLevel": "passive", "ContentAvailable": 1}}),
]
write("tencent-apns-voip-liveactivity.ndjson", lines)

# ---------------------------------------------------------------------------------------------
# Byte budgets (SPEC 5): per vendor, a body whose payload is exactly at, one below and one above
# the budget, in ASCII and in CJK (3 bytes a scalar), then cuts inside grapheme clusters.
# The message is C2C from a sender without a nickname, so no prefix; harmony gets a fixed
# HarmonyInfo.Title so its size does not depend on --locale / --default-title.
def empty_payload(vendor):
    return {
        "apns": '{"aps":{"alert":""}}',
        "voip": '{"aps":{"alert":""}}',
        "fcm": '{"notification":{"body":""},"android":{"priority":"high","notification":{}}}',
        "huawei": '{"android":{"notification":{"body":"","click_action":{"type":3}}}}',
        "honor": '{"android":{"notification":{"body":"","clickAction":{"type":3}}}}',
        "harmony": '{"payload":{"notification":{"category":"IM","title":"H","body":"","clickAction":{"actionType":0}}}}',
    }[vendor]


BUDGET = {"apns": 4096, "voip": 5120, "fcm": 4000, "huawei": 4096, "honor": 4096, "harmony": 4096}


def info_for(vendor):
    if vendor == "voip": return {"ApnsInfo": {"IsVoipPush": 1}}
    if vendor == "harmony": return {"HarmonyInfo": {"Title": "H"}}
    return None


def cjk_fill(room):
    """Exactly `room` bytes: ASCII pad then CJK."""
    return "a" * (room % 3) + "界" * (room // 3)


CLUSTERS = {"zwj": "👨‍👩‍👧", "flag": "🇨🇳", "keycap": "1️⃣", "combining": "é", "cjk": "中"}
lines = []
for vendor, budget in BUDGET.items():
    room = budget - len(empty_payload(vendor).encode())
    for delta, name in ((0, "at"), (-1, "below"), (1, "above")):
        for kind in ("ascii", "cjk"):
            body = "x" * (room + delta) if kind == "ascii" else cjk_fill(room + delta)
            if kind == "cjk" and delta == 1:
                body = "a" * ((room + 1) % 3) + "界" * ((room + 1) // 3)
            lines.append(tmsg([text(body)], key=f"b-{vendor}-{name}-{kind}", info=info_for(vendor)))
    # CJK three bytes over (the cut drops exactly one scalar and a second for the ellipsis).
    body = "a" * (room % 3) + "界" * (room // 3 + 1)
    lines.append(tmsg([text(body)], key=f"b-{vendor}-above-cjk3", info=info_for(vendor)))
    # Cuts that would fall inside a cluster: the cluster is dropped whole (apns and fcm only:
    # the cut is the same code for every budgeted vendor, only the room differs).
    if vendor not in ("apns", "fcm"):
        continue
    for cname, cluster in CLUSTERS.items():
        size = len(cluster.encode())
        for shift in range(0, size + 1, max(1, size // 3)):
            pad = room - 3 - shift
            body = "p" * pad + cluster * 3
            lines.append(tmsg([text(body)], key=f"b-{vendor}-{cname}-{shift}", info=info_for(vendor)))
    # Escapes near the cut: each quote is 2 bytes, \u0001 is 6; never split.
    for tail, tname in (('"', "quote"), ("\u0001", "ctl"), ("\n", "nl")):
        for shift in (1, 2, 3):
            body = "q" * (room - 3 - shift) + tail * 10
            lines.append(tmsg([text(body)], key=f"b-{vendor}-esc-{tname}-{shift}", info=info_for(vendor)))
# The display prefix is part of the body for the cut (sender with a nickname).
room = 4096 - len(empty_payload("apns").encode())
lines.append(tmsg([text("y" * room)], key="b-prefix-counts", sender="user_nick"))
# Room of exactly 3 bytes: the body becomes "…"; 2 bytes: over-budget (huge ext). apns: 20+9+ext.
for ext_len, name in ((4096 - 29 - 3, "room3"), (4096 - 29 - 2, "room2"), (4096 - 29, "room0")):
    lines.append(tmsg([text("body text")], key=f"b-apns-ext-{name}", info={"Ext": "E" * ext_len}))
# Huge title: refused by the budgeted vendors, the capped ones cut it.
lines.append(tmsg([text("body")], key="b-huge-title", info={"Title": "T" * 5000}))
# Huge ext over every selected vendor's limit: the whole line is rejected.
lines.append(tmsg([text("body")], key="b-huge-ext-all", info={"Ext": "E" * 5200}))
# ext over some vendors' limits only (fcm 4000, oppo, vivo, meizu refuse; apns, huawei... cut).
lines.append(tmsg([text("body " * 10)], key="b-ext-some", info={"Ext": "E" * 4050}))
# Desc + Ext over 3 KB: a warning count only.
lines.append(tmsg([text("w")], key="b-desc-ext-3kb", info={"Desc": "d" * 1500, "Ext": "e" * 1573}))
lines.append(tmsg([text("w")], key="b-desc-ext-3kb-exact", info={"Desc": "d" * 1500, "Ext": "e" * 1572}))
write("budgets-bytes.ndjson", lines)

# ---------------------------------------------------------------------------------------------
# Scalar caps (SPEC 5 step 1): titles and bodies at, one below and one above every cap, in
# ASCII, CJK and with clusters across the cut.
TITLE_CAPS = [32, 40, 49, 50]
BODY_CAPS = [50, 100, 127]
lines = []
for cap in TITLE_CAPS:
    for n in (cap - 1, cap, cap + 1):
        lines.append(tmsg([text("b")], key=f"c-title-{n}-ascii", info={"Title": "t" * n}))
        lines.append(tmsg([text("b")], key=f"c-title-{n}-cjk", info={"Title": "标" * n}))
    for cname, cluster in CLUSTERS.items():
        scalars = len(cluster)
        for shift in range(scalars + 1):
            title = "t" * (cap - 1 - shift) + cluster * 2
            lines.append(tmsg([text("b")], key=f"c-title-{cap}-{cname}-{shift}", info={"Title": title}))
for cap in BODY_CAPS:
    for n in (cap - 1, cap, cap + 1):
        lines.append(tmsg([text("b" * n)], key=f"c-body-{n}-ascii"))
        lines.append(tmsg([text("文" * n)], key=f"c-body-{n}-cjk"))
    for cname, cluster in CLUSTERS.items():
        scalars = len(cluster)
        for shift in range(scalars + 1):
            body = "b" * (cap - 1 - shift) + cluster * 2
            lines.append(tmsg([text(body)], key=f"c-body-{cap}-{cname}-{shift}"))
# Escaped scalars count once; the prefix is not in capped bodies.
lines.append('{"To_Account":"u_to","MsgKey":"c-body-escaped-100","From_Account":"user_nick","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"' + "\\u00e9" * 100 + '"}}]}')
lines.append('{"To_Account":"u_to","MsgKey":"c-body-escaped-101","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"' + "\\ud83d\\ude00" * 101 + '"}}]}')
# A first grapheme longer than the cap: just the ellipsis.
lines.append(tmsg([text("e" + "\u0301" * 200)], key="c-body-one-huge-cluster", info={"Title": "a" + "\u0300" * 60}))
# Both title and body cut.
lines.append(tmsg([text("長" * 200)], key="c-both-cut", info={"Title": "题" * 60}))
# Fallback titles that are cut (long nickname) and the group name.
lines.append(tmsg([text("x")], key="c-long-nick-title", sender="u_long"))
# Field budgets: xiaomi payload 4096 UTF-8 bytes, oppo 4000 scalars, vivo 3 + scalars <= 1024,
# meizu {"ext":...} <= 1000 bytes as written.
lines.append(tmsg([text("x")], key="f-xiaomi-4096", info={"Ext": "界" * 1365 + "a"}))
lines.append(tmsg([text("x")], key="f-xiaomi-4097", info={"Ext": "界" * 1365 + "ab"}))
lines.append(tmsg([text("x")], key="f-oppo-4000", info={"Ext": "界" * 4000}))
lines.append(tmsg([text("x")], key="f-oppo-4001", info={"Ext": "界" * 4001}))
lines.append(tmsg([text("x")], key="f-vivo-1021", info={"Ext": "界" * 1021}))
lines.append(tmsg([text("x")], key="f-vivo-1022", info={"Ext": "界" * 1022}))
lines.append(tmsg([text("x")], key="f-meizu-990", info={"Ext": "m" * 990}))
lines.append(tmsg([text("x")], key="f-meizu-991", info={"Ext": "m" * 991}))
lines.append(tmsg([text("x")], key="f-meizu-escaped-990", info={"Ext": '"' * 495}))
lines.append(tmsg([text("x")], key="f-meizu-escaped-991", info={"Ext": '"' * 494 + "m"}))
lines.append(tmsg([text("x")], key="f-meizu-ctl-990", info={"Ext": "\u0001" * 165}))
lines.append(tmsg([text("x")], key="f-meizu-ctl-994", info={"Ext": "\u0001" * 164 + "\u0002" + "mmmm"}))
lines.append(tmsg([text("x")], key="f-vivo-escaped-1021", info={"Ext": '"' * 1021}))
write("caps-scalars.ndjson", lines)

# ---------------------------------------------------------------------------------------------
def ids(n, prefix="r"):
    return [f"{prefix}{i:04d}" for i in range(n)]


lines = [
    tmsg([text("two")], key="r-2", to=ids(2)),
    tmsg([text("101")], key="r-101", to=ids(101)),
    tmsg([text("501")], key="r-501", to=ids(501)),
    tmsg([text("1001")], key="r-1001", to=ids(1001)),
    tmsg([text("1001 no key")], key=None, to=ids(1001)),
    tmsg([text("100")], key="r-100", to=ids(100)),
    tmsg([text("1000")], key="r-1000", to=ids(1000)),
    # Duplicates and empty strings: duplicates kept, empties dropped before the split.
    tmsg([text("dups")], key="r-dups", to=["d"] * 100 + [""] * 5 + ["e"]),
    # vivo requestId: a 70-byte key is cut to 64; with several records, base cut before -n.
    tmsg([text("long key")], key="K" * 70),
    tmsg([text("long key split")], key="S" * 70, to=ids(1001)),
    tmsg([text("multibyte key")], key="界" * 22),
    tmsg([text("multibyte key split")], key="界" * 22, to=ids(1001)),
    tmsg([text("key exactly 64")], key="E" * 64),
    tmsg([text("key 62 split")], key="F" * 62, to=ids(1001)),
    '{"To_Account":"u_to","MsgKey":"esc\\u00e9\\"key","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"escaped key"}}]}',
]
write("recipients-split.ndjson", lines)

# ---------------------------------------------------------------------------------------------
def em(bodies, frm="em_jane", to="em_bob", chat="chat", ext=None, msg_id="em-1", **extra):
    m = {"msg_id": msg_id, "timestamp": 1700000000000, "from": frm, "to": to, "chat_type": chat,
         "payload": {"bodies": bodies}}
    if ext is not None: m["payload"]["ext"] = ext
    m.update(extra)
    return j(m)


BODY_TYPES = [{"type": "txt", "msg": "hello"}, {"type": "img", "url": "u"}, {"type": "loc", "lat": 1},
              {"type": "audio"}, {"type": "video"}, {"type": "file"}, {"type": "custom", "customEvent": "e"},
              {"type": "future"}]
FULL_EM_APNS = {"em_push_title": "EM title", "em_alert_subTitle": "EM sub", "em_push_sound": "em.caf",
                "em_push_mutable_content": True, "em_push_category": "CAT", "em_push_badge": 4,
                "extern": {"route": "/chat", "n": [1, num("2.0"), num("-3e2")], "s": "\u00e9\\/"}}
FULL_EM_ANDROID = {"fcm_channel_id": "fcm-c", "huawei_channel_id": "hw-c", "huawei_category": "IM",
                   "honor_importance": "NORMAL", "oppo_channel_id": "op-c", "vivo_category": "IM",
                   "xiaomi_channel_id": "mi-c"}
lines = [em([b], msg_id=f"em-type-{b['type']}") for b in BODY_TYPES]
lines += [
    em(BODY_TYPES, msg_id="em-all-bodies"),
    em([{"type": "txt", "msg": "g"}], chat="groupchat", to="g_team", msg_id="em-group"),
    em([{"type": "txt", "msg": "g"}], chat="groupchat", to="g_unknown", msg_id="em-group-unknown"),
    em([{"type": "txt", "msg": "nick"}], frm="em_nonick", msg_id="em-sender-id"),
    em([{"type": "txt", "msg": "tencent-named"}], frm="6001", to="6006", msg_id="em-6001"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": FULL_EM_APNS, "em_android_push_ext": FULL_EM_ANDROID,
        "em_harmony_push_ext": {"category": "WORK"}, "em_force_notification": True,
        "em_push_template": {"name": "tpl", "title_args": ["a", num("1.50")], "nested": {"x": None}}}, msg_id="em-full"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_content": "verbatim content"}}, msg_id="em-content"),
    em([{"type": "cmd", "action": "a"}], ext={"em_apns_ext": {"em_push_content": "content on cmd"}}, msg_id="em-cmd-content"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_alert_subTitle": "only sub"}}, msg_id="em-subtitle"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"extern": "string extern"}}, msg_id="em-extern-string"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"extern": num("12.50")}}, msg_id="em-extern-number"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"extern": None}}, msg_id="em-extern-null"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"extern": ""}}, msg_id="em-extern-empty"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"extern": ["a", {"b": True}]}}, msg_id="em-extern-array"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_mutable_content": 1}}, msg_id="em-mutable-1"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_mutable_content": 0}}, msg_id="em-mutable-0"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_mutable_content": False, "em_push_badge": 0}}, msg_id="em-mutable-false"),
    em([{"type": "txt", "msg": "x"}], ext={"em_force_notification": False, "em_ignore_notification": False}, msg_id="em-flags-false"),
    em([{"type": "txt", "msg": "x"}], ext={"em_push_template": {}}, msg_id="em-template-empty"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_title": "T", "em_push_content": ""}}, msg_id="em-title"),
    em([{"type": "future"}], ext={"em_apns_ext": {"em_push_title": "T"}}, msg_id="em-title-only"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {}, "em_android_push_ext": {}, "em_harmony_push_ext": {}}, msg_id="em-empty-exts"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"extern": "e" * 5000}}, msg_id="em-huge-extern"),
    em([{"type": "txt", "msg": "x"}], ext={"custom_app_key": {"k": 1}}, msg_id="em-unrelated-ext"),
    em([{"type": "txt", "msg": "no id"}], msg_id=None),
    em([{"type": "txt", "msg": "x"}], chat="groupchat", to="g_zh", frm="u_alice", msg_id="em-group-zh"),
    # Skips.
    em([{"type": "cmd", "action": "a"}], msg_id="em-cmd"),
    em([{"type": "txt", "msg": "x"}, {"type": "cmd", "action": "a"}], ext={"em_ignore_notification": True}, msg_id="em-cmd-and-ignore"),
    em([{"type": "txt", "msg": "x"}], ext={"em_ignore_notification": True}, msg_id="em-ignore"),
    em([{"type": "future"}], msg_id="em-empty-text"),
    em([], msg_id="em-no-bodies"),
    # Rejects (SPEC 9 field table).
    em([{"type": "txt", "msg": "x"}], frm=None, msg_id="em-r-no-from"),
    em([{"type": "txt", "msg": "x"}], to=5, msg_id="em-r-to-number"),
    em([{"type": "txt", "msg": "x"}], to="", msg_id="em-r-to-empty"),
    em([{"type": "txt", "msg": "x"}], chat="room", msg_id="em-r-chat-type"),
    em([{"type": "txt", "msg": "x"}], msg_id=7),
    '{"from":"a","to":"b","chat_type":"chat","payload":{"bodies":{}}}',
    '{"from":"a","to":"b","chat_type":"chat","payload":{}}',
    '{"from":"a","to":"b","chat_type":"chat","payload":"x"}',
    '{"from":"a","to":"b","chat_type":"chat","payload":{"bodies":[{"type":"txt","msg":"x"}],"ext":[]}}',
    em([{"msg": "x"}], msg_id="em-r-no-type"),
    em([{"type": "txt"}], msg_id="em-r-txt-no-msg"),
    em([{"type": "txt", "msg": 1}], msg_id="em-r-txt-msg-number"),
    em(["txt"], msg_id="em-r-body-string"),
    em([{"type": "txt", "msg": "x"}], ext={"em_ignore_notification": "true"}, msg_id="em-r-ignore-string"),
    em([{"type": "txt", "msg": "x"}], ext={"em_force_notification": 1}, msg_id="em-r-force-int"),
    em([{"type": "txt", "msg": "x"}], ext={"em_push_template": []}, msg_id="em-r-template-array"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": "x"}, msg_id="em-r-apns-string"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_badge": "1"}}, msg_id="em-r-badge-string"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_badge": 1.0}}, msg_id="em-r-badge-float"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_mutable_content": "yes"}}, msg_id="em-r-mutable-string"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_title": 1}}, msg_id="em-r-title-number"),
    em([{"type": "txt", "msg": "x"}], ext={"em_android_push_ext": {"fcm_channel_id": 1}}, msg_id="em-r-android-number"),
    em([{"type": "txt", "msg": "x"}], ext={"em_android_push_ext": []}, msg_id="em-r-android-array"),
    em([{"type": "txt", "msg": "x"}], ext={"em_harmony_push_ext": {"category": 1}}, msg_id="em-r-harmony-number"),
    em([{"type": "cmd"}], ext={"em_ignore_notification": 1}, msg_id="em-r-reject-beats-cmd"),
    em([{"type": "img", "msg": {"x": 1}}], msg_id="em-r-img-msg-object"),
    em([{"type": "cmd", "msg": 5}], msg_id="em-r-cmd-msg-number"),
    em([{"type": "img", "msg": "not read"}, {"type": "loc", "msg": None}], msg_id="em-other-body-msg"),
]
write("easemob-export.ndjson", lines)

# ---------------------------------------------------------------------------------------------
def rest(target, msg, frm="6001", tt="users", ext=None, **extra):
    m = {"target_type": tt, "target": target, "msg": msg, "from": frm}
    if ext is not None: m["ext"] = ext
    m.update(extra)
    return j(m)


lines = [
    # The documented example (issue 4).
    '{"target_type":"users","target":["6006"],"msg":{"type":"txt","msg":"hello from rest"},"from":"6001","ext":{"em_apns_ext":{"extern":"…"}}}',
    rest(["u1", "u2", "u3"], {"type": "txt", "msg": "to three users"}, frm="em_jane"),
    rest(["g_team", "g_noname", "g_unknown", "g_zh"], {"type": "txt", "msg": "to four groups"}, tt="chatgroups", frm="em_jane",
         ext={"em_force_notification": True, "em_push_template": {"name": "t"}}),
    rest(["g_team"], {"type": "img"}, tt="chatgroups", frm="em_nonick"),
    rest(["u1"], {"type": "txt", "msg": "with msg_id"}, msg_id="not-read"),
    rest(["u1"], {"type": "loc"}, ext={"em_apns_ext": {"em_push_content": "rest content", "em_push_title": "RT"}}),
    rest(["u1"], {"type": "cmd", "action": "x"}),
    rest(["u1"], {"type": "txt", "msg": "x"}, ext={"em_ignore_notification": True}),
    rest(["u1", "", "u2"], {"type": "txt", "msg": "empty target dropped"}),
    rest(ids(101, "m"), {"type": "txt", "msg": "101 users"}),
    rest(ids(3, "grp"), {"type": "txt", "msg": "vivo suffix per group"}, tt="chatgroups"),
    # Rejects.
    rest(["u1"], {"type": "txt", "msg": "x"}, tt="rooms"),
    rest("u1", {"type": "txt", "msg": "x"}),
    rest([1], {"type": "txt", "msg": "x"}),
    rest([], {"type": "txt", "msg": "x"}),
    rest([""], {"type": "txt", "msg": "x"}),
    '{"target_type":"users","target":["u1"],"from":"6001"}',
    '{"msg":{"type":"txt","msg":"x"},"target":["u1"],"from":"6001"}',
    rest(["u1"], "hello"),
    rest(["u1"], {"type": "txt", "msg": "x"}, frm=""),
    rest(["u1"], {"type": "txt", "msg": "x"}, ext="x"),
    rest(["u1"], {"type": "cmd", "msg": []}),
]
write("easemob-rest.ndjson", lines)

# ---------------------------------------------------------------------------------------------
# Payloads the vendors accept (SPEC 9 [4, 6.8]): values a vendor refuses are left out (or take
# their default) and counted in dropped_fields; blank bodies become the banner text for the
# vendors that require a body; a blank required title takes the fallback title.
def android(**values):
    return {"AndroidInfo": values}


lines = [
    # ContentState must be an object: an array is not-a-message (strings, numbers: see the
    # apns file).
    tmsg([text("la")], key="va-la-array-state", MsgTimeStamp=1, info={"ApnsInfo": {"LiveActivity": dict(LA, ContentState=[1, 2])}}),
    tmsg([text("la")], key="va-la-empty-state", MsgTimeStamp=1, info={"ApnsInfo": {"LiveActivity": dict(LA, ContentState={})}}),
    # Badges: add 1..99, set 0..99 (huawei, honor, harmony); apns badge, fcm count >= 0.
    tmsg([text("b")], key="va-badge-add-0", info={"BadgeAddNum": 0}),
    tmsg([text("b")], key="va-badge-add-1", info={"BadgeAddNum": 1}),
    tmsg([text("b")], key="va-badge-add-99", info={"BadgeAddNum": 99}),
    tmsg([text("b")], key="va-badge-add-100", info={"BadgeAddNum": 100}),
    tmsg([text("b")], key="va-badge-set-99", info={"BadgeSetNum": 99}),
    tmsg([text("b")], key="va-badge-set-100", info={"BadgeSetNum": 100}),
    tmsg([text("b")], key="va-badge-set-minus1", info={"BadgeSetNum": -1}),
    tmsg([text("b")], key="va-badge-set-huge", info={"BadgeSetNum": num("123456789012345678901234567890")}),
    # Set beats add first, then the chosen value is checked: no fallback to add.
    tmsg([text("b")], key="va-badge-set-100-add-5", info={"BadgeSetNum": 100, "BadgeAddNum": 5}),
    tmsg([text("b")], key="va-badge-set-0-add-100", info={"BadgeSetNum": 0, "BadgeAddNum": 100}),
    # Blank bodies: the banner text for the seven vendors that require a body.
    tmsg([text("\f")], key="va-body-formfeed"),
    tmsg([text(" \u3000\u00a0\u2028\t")], key="va-body-unicode-space", info={"Title": "T"}),
    tmsg([text("\u200b")], key="va-body-zwsp-not-blank"),
    tmsg([text("x")], key="va-desc-blank", info={"Desc": "  ", "Title": "T"}),
    tmsg([], key="va-title-only-group", to=None, group="g_team", info={"Title": "Only a title"}),
    tmsg([text("\u0085")], key="va-body-nel", sender="user_nick"),
    # Blank titles: the fallback title for the vendors that require one.
    tmsg([text("hi")], key="va-title-blank", sender="user_nick", info={"Title": " \t"}),
    tmsg([text("hi")], key="va-harmony-title-blank", info={"Title": "T", "HarmonyInfo": {"Title": "\u3000"}}),
    tmsg([], key="va-title-and-body-blank", info={"Title": "\u00a0", "Desc": "\n"}),
    # huawei category and importance; honor importance.
    tmsg([text("e")], key="va-huawei-category-bad", info=android(HuaWeiCategory="IM2")),
    tmsg([text("e")], key="va-huawei-category-lower", info=android(HuaWeiCategory="im")),
    tmsg([text("e")], key="va-huawei-category-ok", info=android(HuaWeiCategory="SYSTEM_REMINDER")),
    '{"To_Account":"u_to","MsgKey":"va-huawei-category-escaped","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"e"}}],"OfflinePushInfo":{"AndroidInfo":{"HuaWeiCategory":"\\u0049M"}}}',
    tmsg([text("e")], key="va-importance-high", info=android(HuaWeiImportance="HIGH", HonorImportance="HIGH")),
    tmsg([text("e")], key="va-importance-bad", info=android(HuaWeiImportance="URGENT", HonorImportance="normal")),
    # harmony category: unknown values take the default IM.
    tmsg([text("e")], key="va-harmony-category-bad", info={"HarmonyInfo": {"Category": "IM2"}}),
    tmsg([text("e")], key="va-harmony-category-ok", info={"HarmonyInfo": {"Category": "CUSTOMER_SERVICE"}}),
    # vivo notifyType 1..4 (else 4), classification 0 or 1, category by list and classification.
    tmsg([text("e")], key="va-vivo-notifytype-0", info=android(VIVONotifyType=0)),
    tmsg([text("e")], key="va-vivo-notifytype-5", info=android(VIVONotifyType=5)),
    tmsg([text("e")], key="va-vivo-notifytype-1", info=android(VIVONotifyType=1)),
    tmsg([text("e")], key="va-vivo-classification-2", info=android(VIVOClassification=2, VIVOCategory="IM")),
    tmsg([text("e")], key="va-vivo-category-mismatch", info=android(VIVOClassification=0, VIVOCategory="IM")),
    tmsg([text("e")], key="va-vivo-category-mismatch-op", info=android(VIVOClassification=1, VIVOCategory="NEWS")),
    tmsg([text("e")], key="va-vivo-category-operational", info=android(VIVOClassification=0, VIVOCategory="MARKETING")),
    tmsg([text("e")], key="va-vivo-category-alone", info=android(VIVOCategory="NEWS")),
    tmsg([text("e")], key="va-vivo-category-bad", info=android(VIVOClassification=1, VIVOCategory="CHAT")),
    # oppo notify_level 1, 2, 16, and only with a written category.
    tmsg([text("e")], key="va-oppo-level-16", info=android(OPPOCategory="IM", OPPONotifyLevel=16)),
    tmsg([text("e")], key="va-oppo-level-no-category", info=android(OPPONotifyLevel=2)),
    tmsg([text("e")], key="va-oppo-level-3", info=android(OPPOCategory="IM", OPPONotifyLevel=3)),
    tmsg([text("e")], key="va-oppo-level-0", info=android(OPPOCategory="IM", OPPONotifyLevel=0)),
    # meizu noticeMsgType 0 or 1.
    tmsg([text("e")], key="va-meizu-type-2", info=android(MeiZuNoticeMsgType=2)),
    tmsg([text("e")], key="va-meizu-type-minus1", info=android(MeiZuNoticeMsgType=-1)),
    # Every refused value at once: each counted once per (message, vendor, field).
    tmsg([text("e")], key="va-all-bad", info={"BadgeSetNum": -5, "AndroidInfo": {
        "HuaWeiCategory": "X", "HuaWeiImportance": "X", "HonorImportance": "X", "OPPONotifyLevel": 7,
        "VIVOClassification": 9, "VIVOCategory": "X", "VIVONotifyType": 9, "MeiZuNoticeMsgType": 9},
        "HarmonyInfo": {"Category": "X"}}),
    # oppo action_parameters holds the JSON text {"ext":...}.
    tmsg([text("e")], key="va-oppo-ext-url", info={"Ext": "https://example.com/a?b=1&c=/d"}),
    tmsg([text("e")], key="va-oppo-ext-json", info={"Ext": "{\"k\":\"v\\\\n\",\"q\":\"\\\"\"}"}),
    tmsg([text("e")], key="va-oppo-ext-control", info={"Ext": "tab\tquote\"back\\ctl\u0001 é"}),
    # oppo's budget counts the JSON text: 10 + 3990 scalars fit, 10 + 3991 do not; an escape
    # counts its backslash.
    tmsg([text("e")], key="va-oppo-budget-at", info={"Ext": "a" * 3990}),
    tmsg([text("e")], key="va-oppo-budget-over", info={"Ext": "a" * 3991}),
    tmsg([text("e")], key="va-oppo-budget-escape-over", info={"Ext": "\"" + "a" * 3989}),
    tmsg([text("e")], key="va-oppo-budget-cjk-at", info={"Ext": "中" * 3990}),
    # meizu parameters has no budget.
    tmsg([text("e")], key="va-meizu-large-parameters", info={"Ext": "m" * 1500}),
    tmsg([text("e")], key="va-meizu-huge-parameters", info={"Ext": "中" * 5000}),
]
lines += [
    # Easemob: an unlisted em_harmony_push_ext category, em_android_push_ext values.
    em([{"type": "txt", "msg": "x"}], ext={"em_harmony_push_ext": {"category": "IM2"}}, msg_id="va-em-harmony-category"),
    em([{"type": "txt", "msg": "x"}], ext={"em_android_push_ext": {"huawei_category": "CHAT", "honor_importance": "HIGH",
        "vivo_category": "NEWS"}}, msg_id="va-em-android-values"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_badge": -2}}, msg_id="va-em-badge-negative"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_badge": 100}}, msg_id="va-em-badge-100"),
    # Easemob blank content and title; a JSON extern in oppo's action_parameters.
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"em_push_content": "\r\n", "em_push_title": " "}}, msg_id="va-em-blank-content"),
    em([{"type": "future"}], ext={"em_apns_ext": {"em_push_title": "Title only"}}, msg_id="va-em-title-only"),
    em([{"type": "txt", "msg": "x"}], ext={"em_apns_ext": {"extern": {"route": "/chat", "q": "a\"b"}}}, msg_id="va-em-extern-json"),
]
write("vendor-accept.ndjson", lines)

# ---------------------------------------------------------------------------------------------
SAMPLES = ["中文推送", "emoji 😀 and 👨‍👩‍👧 and 🇨🇳 and 1️⃣", "café é", "slash / and \\ and \"",
           "ctl \u0001\u001f del \u007f ls \u2028 ps \u2029", "ÅÄÖ \u00a0nbsp"]
lines = []
for index, sample in enumerate(SAMPLES):
    for form, lit in (("raw", json.dumps(sample, ensure_ascii=False)), ("esc", esc(sample))):
        lines.append('{"From_Account":"u_alice","To_Account":"u_to","MsgKey":"u-%d-%s","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":%s}}],"OfflinePushInfo":{"Title":%s,"Ext":%s}}' % (index, form, lit, lit, lit))
    for form, lit in (("raw", json.dumps(sample, ensure_ascii=False)), ("esc", esc(sample))):
        lines.append('{"from":"em_jane","to":"em_bob","chat_type":"chat","msg_id":"ue-%d-%s","payload":{"bodies":[{"type":"txt","msg":%s}],"ext":{"em_apns_ext":{"extern":%s}}}}' % (index, form, lit, lit))
# Uppercase hex, escaped solidus, escaped ASCII: same payload as raw.
lines.append('{"From_Account":"u_alice","To_Account":"u_to","MsgKey":"u-hex-raw","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"é/A"}}]}')
lines.append('{"From_Account":"u_alice","To_Account":"u_to","MsgKey":"u-hex-esc","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"\\u00E9\\/\\u0041"}}]}')
# Key, recipients and group ids with escapes are written canonically.
lines.append('{"To_Account":["\\u0075\\u0031","u\\"2"],"MsgKey":"\\u006b-esc","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"ids"}}]}')
lines.append('{"GroupId":"g\\u005fteam","From_Account":"u\\u005falice","MsgKey":"u-group-esc","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"gid"}}]}')
# No key: vivo requestId is the hash of the line; CRLF ending is not part of the line.
lines.append('{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hash me"}}]}')
lines.append('{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hash me"}}]}')
lines.append('{"To_Account":"u_to","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":{"Text":"hash me"}}]} ')
# Whitespace between tokens, a lone CR as whitespace.
lines.append(' \t{ "To_Account" : "u_to" ,\r"MsgKey":"u-spaces", "MsgBody" : [ { "MsgType" : "TIMTextElem" , "MsgContent" : { "Text" : "spaced" } } ] } \t')
write("unicode-escapes.ndjson", lines, bom=True, crlf=(len(lines) - 3,))
print("wrote", OUT)
