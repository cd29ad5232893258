#!/usr/bin/env python3
"""Checks that every payload push-transcode writes is one its vendor accepts (SPEC 9 [4, 6.8]).

Usage: vendor_conformance.py RECORDS.ndjson...   (the NDJSON records of `push-transcode -o -`)

fcm payloads are validated as a `Message` of the FCM HTTP v1 discovery document shipped in the
installed google-api-python-client (googleapiclient/discovery_cache/documents/fcm.v1.json): field
names as the schema's JSON names or their proto (snake_case) names, types, enums compared
without case (Google's own Admin SDK sends them lowercase), `data` string to string, no reserved
`data` keys. Without google-api-python-client that part is skipped with a message. The other
vendors are checked against the table of constraints below (each row names its source); APNs
against Apple's documented `aps` keys and value types and its size limits.

Prints every problem (the first 50) and exits 1, else prints a one-line summary and exits 0.
Reject records (`"vendor":"reject"`) are not payloads and are skipped.
"""
import json
import os
import re
import sys

BANNED_DATA_KEYS = ("from", "message_type")  # and any key starting with google / gcm


def scalars(text):
    return len(text)  # Python strings are sequences of Unicode scalars


def blank(text):
    """Empty, or only scalars up to U+0020 or with the White_Space property."""
    white = {0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000}
    return all(ord(c) <= 0x20 or ord(c) in white or 0x2000 <= ord(c) <= 0x200A for c in text)


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


# --- The constraints table --------------------------------------------------------------------
# (vendor, path, rule, source). A path is a list of keys; rules are checked when the key is
# present, `required` rules also when it is absent.
SOURCES = {
    "hms": "HMS-Core hms-push-serverdemo-java: AndroidNotification.check(), BadgeNotification.check(), "
    "ClickAction.check(), AndroidConfig.check(); Huawei Push Kit server API reference",
    "honor": "Honor Push server API reference (Android notification: importance, badge, clickAction)",
    "harmony": "HarmonyOS Push Kit REST API, Notification table (category, title, body, badge, clickAction)",
    "xiaomi": "Xiaomi Push server API table and official Java SDK (Message.Builder: title, description, "
    "payload ≤ 4096 bytes, pass_through, notify_type)",
    "oppo": "OPPO opush-server-sdk Notification and API document (title, content, click_action_type, "
    "action_parameters JSON ≤ 4000, notify_level 1/2/16 with category)",
    "vivo": "vivo server SDK Validation and category constants (title ≤ 40, content ≤ 100, notifyType 1-4, "
    "classification 0/1, category by classification, skipType, clientCustomMap ≤ 1024, requestId ≤ 64)",
    "meizu": "Meizu PushAPI README and Java SDK (noticeBarInfo title ≤ 32, content ≤ 100, noticeMsgType 0/1, "
    "clickTypeInfo.clickType 0-3, parameters a JSON object)",
    "apple": "Apple, Generating a remote notification: payload key reference (aps keys and types), "
    "4096 bytes (5120 for VoIP); Live Activity content-state a dictionary",
}

HUAWEI_CATEGORIES = {"IM", "VOIP", "SUBSCRIPTION", "TRAVEL", "HEALTH", "WORK", "ACCOUNT", "EXPRESS",
                     "FINANCE", "DEVICE_REMINDER", "SYSTEM_REMINDER", "MAIL", "PLAY_VOICE", "MARKETING"}
HARMONY_CATEGORIES = {"IM", "VOIP", "MISS_CALL", "SUBSCRIPTION", "TRAVEL", "HEALTH", "WORK", "ACCOUNT",
                      "EXPRESS", "FINANCE", "DEVICE_REMINDER", "MAIL", "PLAY_VOICE", "MARKETING",
                      "CUSTOMER_SERVICE"}
VIVO_SYSTEM = {"IM", "ACCOUNT", "TODO", "DEVICE_REMINDER", "ORDER", "SUBSCRIPTION"}
VIVO_OPERATIONAL = {"NEWS", "CONTENT", "MARKETING", "SOCIAL"}


def required_text(cap=None):
    def rule(v):
        if not isinstance(v, str):
            return "must be a string"
        if blank(v):
            return "must not be empty or blank"
        if cap is not None and scalars(v) > cap:
            return "has %d scalars, more than %d" % (scalars(v), cap)
    return rule


def optional_string(v):
    return None if isinstance(v, str) and v != "" else "must be a non-empty string"


def one_of(values):
    return lambda v: None if v in values else "%r is not one of %s" % (v, sorted(values, key=str))


def int_range(low, high):
    return lambda v: None if is_int(v) and low <= v <= high else "%r is not an integer in %d..%d" % (v, low, high)


def string_map(v):
    if not isinstance(v, dict) or not all(isinstance(k, str) and isinstance(x, str) for k, x in v.items()):
        return "must be an object of strings"


def badge(add, set_):
    def rule(v):
        if not isinstance(v, dict) or len(v) != 1:
            return "must hold exactly one of %s, %s" % (add, set_)
        (key, value), = v.items()
        if key == add:
            return int_range(1, 99)(value)
        if key == set_:
            return int_range(0, 99)(value)
        return "unknown badge key %r" % key
    return rule


def json_object_text(limit):
    def rule(v):
        if not isinstance(v, str):
            return "must be a string"
        try:
            parsed = json.loads(v)
        except ValueError:
            return "must hold JSON text"
        if not isinstance(parsed, dict):
            return "must hold a JSON object"
        if scalars(v) > limit:
            return "has %d scalars, more than %d" % (scalars(v), limit)
    return rule


def utf8_at_most(limit):
    return lambda v: None if isinstance(v, str) and len(v.encode("utf-8")) <= limit else "longer than %d bytes" % limit


R = "required"
TABLE = [
    # huawei
    ("huawei", ["android", "notification", "body"], R, required_text(), "hms"),
    ("huawei", ["android", "notification", "title"], None, optional_string, "hms"),
    ("huawei", ["android", "category"], None, one_of(HUAWEI_CATEGORIES), "hms"),
    ("huawei", ["android", "notification", "importance"], None, one_of({"LOW", "NORMAL", "HIGH"}), "hms"),
    ("huawei", ["android", "notification", "badge"], None, badge("add_num", "set_num"), "hms"),
    ("huawei", ["android", "notification", "click_action", "type"], R, int_range(1, 4), "hms"),
    ("huawei", ["android", "notification", "default_sound"], None, lambda v: None if isinstance(v, bool) else "must be a boolean", "hms"),
    ("huawei", ["data"], None, lambda v: None if isinstance(v, str) else "must be a string", "hms"),
    # honor
    ("honor", ["android", "notification", "body"], R, required_text(), "honor"),
    ("honor", ["android", "notification", "importance"], None, one_of({"LOW", "NORMAL"}), "honor"),
    ("honor", ["android", "notification", "badge"], None, badge("addNum", "setNum"), "honor"),
    ("honor", ["android", "notification", "clickAction", "type"], R, int_range(1, 3), "honor"),
    ("honor", ["data"], None, lambda v: None if isinstance(v, str) else "must be a string", "honor"),
    # harmony
    ("harmony", ["payload", "notification", "category"], R, one_of(HARMONY_CATEGORIES), "harmony"),
    ("harmony", ["payload", "notification", "title"], R, required_text(), "harmony"),
    ("harmony", ["payload", "notification", "body"], R, required_text(), "harmony"),
    ("harmony", ["payload", "notification", "badge"], None, badge("addNum", "setNum"), "harmony"),
    ("harmony", ["payload", "notification", "clickAction", "actionType"], R, int_range(0, 3), "harmony"),
    ("harmony", ["payload", "notification", "clickAction", "data"], None, lambda v: None if isinstance(v, dict) else "must be an object", "harmony"),
    ("harmony", ["payload", "notification", "soundDuration"], None, lambda v: None if is_int(v) else "must be an integer", "harmony"),
    # xiaomi
    ("xiaomi", ["title"], R, required_text(50), "xiaomi"),
    ("xiaomi", ["description"], R, required_text(128), "xiaomi"),
    ("xiaomi", ["payload"], None, utf8_at_most(4096), "xiaomi"),
    ("xiaomi", ["pass_through"], R, one_of({0, 1}), "xiaomi"),
    ("xiaomi", ["notify_type"], R, lambda v: None if v == -1 or (is_int(v) and 1 <= v <= 7) else "%r is not -1 or 1..7" % (v,), "xiaomi"),
    ("xiaomi", ["extra"], None, string_map, "xiaomi"),
    # oppo
    ("oppo", ["title"], R, required_text(50), "oppo"),
    ("oppo", ["content"], R, required_text(50), "oppo"),
    ("oppo", ["click_action_type"], R, int_range(0, 5), "oppo"),
    ("oppo", ["action_parameters"], None, json_object_text(4000), "oppo"),
    ("oppo", ["notify_level"], None, one_of({1, 2, 16}), "oppo"),
    ("oppo", ["channel_id"], None, optional_string, "oppo"),
    ("oppo", ["category"], None, optional_string, "oppo"),
    # vivo
    ("vivo", ["title"], R, required_text(40), "vivo"),
    ("vivo", ["content"], R, required_text(100), "vivo"),
    ("vivo", ["notifyType"], R, int_range(1, 4), "vivo"),
    ("vivo", ["classification"], None, one_of({0, 1}), "vivo"),
    ("vivo", ["category"], None, one_of(VIVO_SYSTEM | VIVO_OPERATIONAL), "vivo"),
    ("vivo", ["skipType"], R, int_range(1, 4), "vivo"),
    ("vivo", ["clientCustomMap"], None, lambda v: string_map(v) or (None if sum(scalars(k) + scalars(x) for k, x in v.items()) <= 1024 else "more than 1024 scalars"), "vivo"),
    ("vivo", ["requestId"], R, lambda v: None if isinstance(v, str) and 0 < len(v.encode("utf-8")) <= 64 else "must be 1..64 bytes", "vivo"),
    # meizu
    ("meizu", ["noticeBarInfo", "title"], R, required_text(32), "meizu"),
    ("meizu", ["noticeBarInfo", "content"], R, required_text(100), "meizu"),
    ("meizu", ["noticeBarInfo", "noticeMsgType"], None, one_of({0, 1}), "meizu"),
    ("meizu", ["clickTypeInfo", "clickType"], R, int_range(0, 3), "meizu"),
    ("meizu", ["clickTypeInfo", "parameters"], None, lambda v: None if isinstance(v, dict) else "must be an object", "meizu"),
]


def lookup(payload, path):
    value = payload
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return False, None
        value = value[key]
    return True, value


def check_table(vendor, payload, problems):
    for row_vendor, path, required, rule, source in TABLE:
        if row_vendor != vendor:
            continue
        found, value = lookup(payload, path)
        if not found:
            if required:
                problems.append("%s: %s is required [%s]" % (vendor, ".".join(path), source))
            continue
        message = rule(value)
        if message:
            problems.append("%s: %s %s [%s]" % (vendor, ".".join(path), message, source))
    if vendor == "vivo":
        # The category must match a written classification (vivo's category constants).
        cls, cat = payload.get("classification"), payload.get("category")
        if cls is not None and cat is not None:
            if (cls == 1 and cat not in VIVO_SYSTEM) or (cls == 0 and cat not in VIVO_OPERATIONAL):
                problems.append("vivo: category %r does not match classification %r [vivo]" % (cat, cls))
    if vendor == "oppo" and "notify_level" in payload and "category" not in payload:
        problems.append("oppo: notify_level without category [oppo]")
    if vendor in ("huawei", "honor", "harmony"):
        if len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) > 4096:
            problems.append("%s: payload over 4096 bytes" % vendor)


# --- APNs ---------------------------------------------------------------------------------------
APS_TYPES = {
    "alert": (str, dict), "badge": int, "sound": (str, dict), "thread-id": str, "category": str,
    "content-available": int, "mutable-content": int, "target-content-id": str,
    "interruption-level": str, "relevance-score": (int, float), "filter-criteria": str,
    "stale-date": int, "content-state": dict, "timestamp": int, "event": str, "dismissal-date": int,
    "attributes-type": str, "attributes": dict,
}
ALERT_TYPES = {"title": str, "subtitle": str, "body": str, "launch-image": str, "title-loc-key": str,
               "title-loc-args": list, "subtitle-loc-key": str, "subtitle-loc-args": list,
               "loc-key": str, "loc-args": list}
INTERRUPTION_LEVELS = {"passive", "active", "time-sensitive", "critical"}
LIVE_EVENTS = {"start", "update", "end"}


def check_apns(record, payload, raw_size, problems):
    source = "apple"
    aps = payload.get("aps")
    if not isinstance(aps, dict):
        problems.append("apns: aps must be a dictionary [%s]" % source)
        return
    for key, value in aps.items():
        expected = APS_TYPES.get(key)
        if expected is None:
            problems.append("apns: unknown aps key %r [%s]" % (key, source))
        elif isinstance(value, bool) or not isinstance(value, expected):
            problems.append("apns: aps.%s has the wrong type [%s]" % (key, source))
    alert = aps.get("alert")
    if isinstance(alert, dict):
        for key, value in alert.items():
            if key not in ALERT_TYPES or not isinstance(value, ALERT_TYPES[key]):
                problems.append("apns: aps.alert.%s is not a documented key of its type [%s]" % (key, source))
    if is_int(aps.get("badge")) and aps["badge"] < 0:
        problems.append("apns: badge %d is negative [%s]" % (aps["badge"], source))
    for flag in ("content-available", "mutable-content"):
        if flag in aps and aps[flag] != 1:
            problems.append("apns: %s must be 1 [%s]" % (flag, source))
    if "interruption-level" in aps and aps["interruption-level"] not in INTERRUPTION_LEVELS:
        problems.append("apns: interruption-level %r [%s]" % (aps["interruption-level"], source))
    push_type = record.get("push_type")
    if push_type == "liveactivity":
        for key in ("timestamp", "event", "content-state"):
            if key not in aps:
                problems.append("apns: a Live Activity needs aps.%s [%s]" % (key, source))
        if "event" in aps and aps["event"] not in LIVE_EVENTS:
            problems.append("apns: Live Activity event %r [%s]" % (aps["event"], source))
    limit = 5120 if push_type == "voip" else 4096
    if raw_size > limit:
        problems.append("apns: payload is %d bytes, over %d [%s]" % (raw_size, limit, source))


# --- FCM ----------------------------------------------------------------------------------------
def load_fcm_schemas():
    try:
        import googleapiclient
    except ImportError:
        return None, None
    path = os.path.join(os.path.dirname(googleapiclient.__file__), "discovery_cache", "documents", "fcm.v1.json")
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    return document["schemas"], path


def snake(name):
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def check_schema(schemas, schema, value, where, problems):
    if "$ref" in schema:
        schema = schemas[schema["$ref"]]
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            problems.append("fcm: %s must be an object" % where)
            return
        properties = schema.get("properties")
        if properties is None:
            extra = schema.get("additionalProperties")
            for key, item in value.items():
                if extra:
                    check_schema(schemas, extra, item, "%s.%s" % (where, key), problems)
            return
        names = {}
        for name, sub in properties.items():
            names[name] = sub
            names[snake(name)] = sub
        for key, item in value.items():
            if key not in names:
                problems.append("fcm: %s.%s is not a field of the schema" % (where, key))
                continue
            check_schema(schemas, names[key], item, "%s.%s" % (where, key), problems)
    elif kind == "string":
        if schema.get("format") in ("int32", "int64", "uint32", "uint64"):
            ok = is_int(value) or (isinstance(value, str) and re.fullmatch(r"-?\d+", value))
        else:
            ok = isinstance(value, str)
        if not ok:
            problems.append("fcm: %s must be a string" % where)
            return
        enum = schema.get("enum")
        if enum and value.upper() not in {e.upper() for e in enum}:
            problems.append("fcm: %s %r is not one of %s" % (where, value, enum))
    elif kind == "integer":
        if not is_int(value):
            problems.append("fcm: %s must be an integer" % where)
        elif schema.get("format") == "int32" and not -2**31 <= value < 2**31:
            # SPEC 9 [4, 6.8] gives notification_count one rule, ">= 0", compared exactly; the
            # SPEC's range stands over the schema's int32 (docs/DECISIONS.md [4, 9]), so only
            # a negative count is a problem (check_fcm).
            if not where.endswith(".notification_count"):
                problems.append("fcm: %s is out of int32 range" % where)
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append("fcm: %s must be a number" % where)
    elif kind == "boolean":
        if not isinstance(value, bool):
            problems.append("fcm: %s must be a boolean" % where)
    elif kind == "array":
        if not isinstance(value, list):
            problems.append("fcm: %s must be an array" % where)
            return
        for index, item in enumerate(value):
            check_schema(schemas, schema["items"], item, "%s[%d]" % (where, index), problems)


def check_fcm(schemas, payload, problems):
    check_schema(schemas, {"$ref": "Message"}, payload, "message", problems)
    data = payload.get("data", {})
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(value, str):
                problems.append("fcm: data.%s must be a string" % key)
            if key in BANNED_DATA_KEYS or key.lower().startswith(("google", "gcm")):
                problems.append("fcm: data key %r is reserved" % key)
    notification = payload.get("android", {}).get("notification", {})
    count = notification.get("notification_count", notification.get("notificationCount"))
    if is_int(count) and count < 0:
        problems.append("fcm: notification_count %d is negative" % count)


def main(paths):
    schemas, schema_path = load_fcm_schemas()
    counts = {}
    problems = []
    for path in paths:
        with open(path, "rb") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                record = json.loads(line)
                vendor = record.get("vendor")
                if vendor == "reject":
                    continue
                payload = record["payload"]
                found = []
                if vendor == "apns":
                    # The payload's bytes as written (canonical JSON), sliced from the record.
                    raw = line.rstrip(b"\r\n")
                    start = raw.index(b'"payload":') + len(b'"payload":')
                    check_apns(record, payload, len(raw) - start - 1, found)
                elif vendor == "fcm":
                    if schemas is not None:
                        check_fcm(schemas, payload, found)
                else:
                    check_table(vendor, payload, found)
                counts[vendor] = counts.get(vendor, 0) + 1
                for problem in found:
                    problems.append("%s:%d (source %s line %s): %s" % (
                        os.path.basename(path), number, record.get("source"), record.get("line"), problem))
    if schemas is None:
        print("vendor_conformance: google-api-python-client is not installed: fcm payloads not "
              "checked against the FCM v1 discovery document", file=sys.stderr)
    if problems:
        for problem in problems[:50]:
            print(problem)
        print("vendor_conformance: %d problems in %d payloads" % (len(problems), sum(counts.values())))
        return 1
    print("vendor_conformance: %d payloads pass (%s); fcm schema: %s" % (
        sum(counts.values()), ", ".join("%s %d" % kv for kv in sorted(counts.items())),
        schema_path or "skipped"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
