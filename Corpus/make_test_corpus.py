#!/usr/bin/env python3
"""Writes a seeded NDJSON corpus of chat messages to stdout, for the CLI tests.

    python3 Corpus/make_test_corpus.py SEED SIZE_MB [--malformed] [--malformed-rate R]

The CLI tests use ../shared/bench/gen_corpus.py when it is there (the benchmark kit's corpus,
with the same arguments) and this script otherwise, so that a clone on its own runs every
test. It is not a copy of that kit: it writes what the tests need from a corpus, in the
project's own words:
- Tencent Cloud Chat lines (C2C and group; text, face, location, custom, image, sound, file and
  video elements; OfflinePushInfo with titles, Desc, Ext, badges, PushFlag, ApnsInfo,
  AndroidInfo and HarmonyInfo fields), and Easemob export and REST lines;
- text in several scripts, emoji (surrogate pairs when escaped), JSON escapes, long texts that
  vendors must cut, and recipient lists long enough to split into several records;
- with --malformed, about R of the lines (default 0.05) broken in one of the ways the SPEC
  names: syntax errors, invalid UTF-8, a lone surrogate escape, nesting deeper than 512, valid
  JSON that is not a message, a field of the wrong type, and blank lines; some lines end in
  CRLF.
The output depends only on the arguments.
"""
import json
import random
import sys

WORDS = ["hello", "meeting", "tonight", "photo", "ok", "thanks", "see", "you", "at", "the",
         "office", "lunch", "deploy", "review", "ticket", "call", "me", "later", "please",
         "done"]
CJK = "你好今天晚上开会吗收到谢谢明天见项目进度更新了"
EMOJI = ["😀", "🎉", "👍", "❤️", "👨‍👩‍👧", "🇨🇳", "👋🏽"]
OTHER = ["Привет мир", "مرحبا", "שלום", "こんにちは", "안녕하세요", "Ελληνικά", "café crème"]


def text(rng):
    kind = rng.random()
    if kind < 0.02:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randrange(300, 1200)))
    parts = []
    for _ in range(rng.randrange(1, 12)):
        pick = rng.random()
        if pick < 0.55:
            parts.append(rng.choice(WORDS))
        elif pick < 0.75:
            start = rng.randrange(len(CJK) - 4)
            parts.append(CJK[start:start + rng.randrange(2, 5)])
        elif pick < 0.88:
            parts.append(rng.choice(EMOJI))
        elif pick < 0.95:
            parts.append(rng.choice(OTHER))
        else:
            parts.append(rng.choice(["a\nb", "tab\there", 'say "hi"', "back\\slash", "\u0001"]))
    return " ".join(parts)


def users(rng, count):
    return ["user_%d" % rng.randrange(100000) for _ in range(count)]


def tencent(rng):
    body = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        kind = rng.random()
        if kind < 0.6:
            body.append({"MsgType": "TIMTextElem", "MsgContent": {"Text": text(rng) or "x"}})
        elif kind < 0.68:
            content = {"Data": "d%d" % rng.randrange(1000)}
            if rng.random() < 0.7:
                content["Desc"] = text(rng)
            if rng.random() < 0.5:
                content["Ext"] = json.dumps({"k": rng.randrange(100)})
            body.append({"MsgType": "TIMCustomElem", "MsgContent": content})
        else:
            kind = rng.choice(["TIMFaceElem", "TIMLocationElem", "TIMImageElem", "TIMSoundElem",
                               "TIMFileElem", "TIMVideoFileElem", "TIMRelayElem", "TIMFutureElem"])
            body.append({"MsgType": kind, "MsgContent": {"Index": rng.randrange(10)}})
    message = {"From_Account": rng.choice(users(rng, 1) + [""])}
    if rng.random() < 0.3:
        message["GroupId"] = "group_%d" % rng.randrange(500)
    else:
        pick = rng.random()
        count = 1100 if pick < 0.004 else 600 if pick < 0.01 else 120 if pick < 0.03 \
            else rng.choice([1, 1, 1, 1, 2, 5])
        message["To_Account"] = users(rng, count) if count > 1 or rng.random() < 0.5 \
            else users(rng, 1)[0]
    if rng.random() < 0.5:
        message["MsgKey"] = "%d_%d" % (rng.randrange(10**6), rng.randrange(10**9))
    message["MsgRandom"] = rng.randrange(2**31)
    message["MsgTimeStamp"] = 1700000000 + rng.randrange(10**6)
    message["MsgBody"] = body
    if rng.random() < 0.45:
        info = {}
        if rng.random() < 0.05:
            info["PushFlag"] = 1
        if rng.random() < 0.5:
            info["Title"] = text(rng)[:60]
        if rng.random() < 0.4:
            info["Desc"] = text(rng)
        if rng.random() < 0.4:
            info["Ext"] = json.dumps({"conversation": "c%d" % rng.randrange(100),
                                      "payload": "p" * rng.choice([5, 50, 900, 4200])})
        if rng.random() < 0.3:
            info["BadgeSetNum" if rng.random() < 0.5 else "BadgeAddNum"] = rng.randrange(99)
        if rng.random() < 0.4:
            info["ApnsInfo"] = {"Sound": "ding.caf", "SubTitle": text(rng)[:20],
                                "MutableContent": rng.choice([0, 1]),
                                "IsVoipPush": rng.choice([0, 0, 0, 1])}
        if rng.random() < 0.4:
            info["AndroidInfo"] = {"Sound": "ding", "HuaWeiChannelID": "hw_im",
                                   "OPPOChannelID": "oppo_im", "VIVOClassification": 1,
                                   "XiaoMiChannelID": "mi_im", "GooglePriority": "normal"}
        if rng.random() < 0.2:
            info["HarmonyInfo"] = {"Category": "IM", "Title": "harmony title"}
        message["OfflinePushInfo"] = info
    return message


def easemob(rng):
    bodies = []
    for _ in range(rng.choice([1, 1, 2])):
        kind = rng.choice(["txt", "txt", "txt", "img", "loc", "audio", "video", "file", "custom",
                           "cmd"])
        bodies.append({"type": kind, "msg": text(rng) or "x"} if kind == "txt"
                      else {"type": kind})
    ext = {}
    if rng.random() < 0.3:
        ext["em_apns_ext"] = {"em_push_title": text(rng)[:40], "extern": {"id": rng.randrange(99)}}
    if rng.random() < 0.05:
        ext["em_ignore_notification"] = True
    if rng.random() < 0.1:
        ext["em_force_notification"] = True
    if rng.random() < 0.5:
        group = rng.random() < 0.3
        message = {"msg_id": str(rng.randrange(10**15)), "timestamp": 1700000000000,
                   "from": users(rng, 1)[0],
                   "to": "group_%d" % rng.randrange(500) if group else users(rng, 1)[0],
                   "chat_type": "groupchat" if group else "chat",
                   "payload": {"bodies": bodies}}
        if ext:
            message["payload"]["ext"] = ext
        return message
    groups = rng.random() < 0.3
    message = {"target_type": "chatgroups" if groups else "users",
               "target": ["group_%d" % rng.randrange(500) for _ in range(rng.randrange(1, 4))]
               if groups else users(rng, rng.choice([1, 1, 2, 3, 3, 3, 3, 3, 3, 150])),
               "from": users(rng, 1)[0], "msg": bodies[0]}
    if ext:
        message["ext"] = ext
    return message


def encode(rng, message):
    line = json.dumps(message, ensure_ascii=rng.random() < 0.3, separators=(",", ":"))
    return line.encode("utf-8")


def malformed(rng):
    kind = rng.randrange(8)
    good = encode(rng, tencent(rng))
    if kind == 0:
        return good[:rng.randrange(1, len(good) - 1)]                      # truncated
    if kind == 1:
        return good[:-1] + b",}"                                           # trailing comma
    if kind == 2:
        cut = good.index(b"MsgBody")
        return good[:cut] + b"\xff\xfe" + good[cut:]                       # invalid UTF-8
    if kind == 3:
        return b'{"To_Account":"u","MsgBody":[{"MsgType":"TIMTextElem","MsgContent":' \
            b'{"Text":"a\\ud800b"}}]}'                                     # lone surrogate
    if kind == 4:
        return b"[" * 600 + b"]" * 600                                     # too deep
    if kind == 5:
        return b'{"event":"login","user":"u1"}'                            # not a message
    if kind == 6:
        return b'{"To_Account":"u","MsgBody":[],"OfflinePushInfo":{"PushFlag":"1"}}'
    return b"   "                                                          # blank


def main():
    args = sys.argv[1:]
    seed, megabytes = int(args[0]), float(args[1])
    broken = "--malformed" in args
    rate = float(args[args.index("--malformed-rate") + 1]) if "--malformed-rate" in args else 0.05
    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    out = sys.stdout.buffer
    written = 0
    while written < target:
        if broken and rng.random() < rate:
            line = malformed(rng)
        else:
            line = encode(rng, tencent(rng) if rng.random() < 0.75 else easemob(rng))
        ending = b"\r\n" if rng.random() < 0.02 else b"\n"
        out.write(line + ending)
        written += len(line) + len(ending)


if __name__ == "__main__":
    main()
