"""A small validator of JSON bodies against the APIs' own machine-readable contracts.

The contracts are copies of what the vendors publish, cut to what StoreRelease reads
(Tests/Contracts/, from ../shared/reference/specs/):

  play-developer-api.subset.json   Google's androidpublisher v3 discovery document
  play-app-recovery.subset.json    the same document's apprecovery methods (list, create, deploy, cancel…)
  app-store-connect.subset.json    Apple's App Store Connect OpenAPI document
  app-store-connect-analytics.subset.json   the same document's analytics paths and the phased
                                   release's PATCH
  play-developer-reporting.subset.json     Google's playdeveloperreporting v1beta1 discovery document

The Play subset has no edits.tracks.update nor edits.commit; WRITES below names their shapes from
the discovery document (update takes and answers a Track, commit answers an AppEdit), which the
subset does carry.

What it checks: types (string, integer, number, boolean, object, array), enums, Google's int64 and
uint64 as strings of digits, OpenAPI's date-time and date formats, required keys, $refs (Google's
bare names, OpenAPI's "#/components/schemas/X"), oneOf (by the discriminator when there is one),
additionalProperties, and keys the schema does not name (a fake must not invent fields). null is
accepted nowhere: neither contract marks anything nullable, so a fake leaves a key out instead.
A $ref to a schema the subset left out accepts anything (the subset says so of itself).

Google's error envelope is not in the discovery document (it is google.rpc.Status as JSON,
AIP-193); GOOGLE_ERROR below is that shape, written here.
"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
CONTRACTS = os.path.join(os.path.dirname(HERE), "Contracts")

GOOGLE_ERROR = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "integer"},
                "message": {"type": "string"},
                "status": {"type": "string"},
                "errors": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"domain": {"type": "string"}, "reason": {"type": "string"},
                                   "message": {"type": "string"}, "location": {"type": "string"},
                                   "locationType": {"type": "string"}}}},
                "details": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
            },
        }
    },
}

DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_SPECS = {}


def spec(name):
    """The contract `play`, `asc`, `recovery`, `ascanalytics` or `reporting`, loaded once."""
    if name not in _SPECS:
        file = {"play": "play-developer-api.subset.json", "asc": "app-store-connect.subset.json",
                "recovery": "play-app-recovery.subset.json",
                "ascanalytics": "app-store-connect-analytics.subset.json",
                "reporting": "play-developer-reporting.subset.json"}[name]
        with open(os.path.join(CONTRACTS, file), encoding="utf-8") as f:
            _SPECS[name] = json.load(f)
    return _SPECS[name]


def resolve(api, ref):
    """The schema a $ref names, or None when the subset left it out."""
    document = spec(api)
    if "schemas" in document:  # a Google discovery document: bare names
        return document["schemas"].get(ref)
    prefix = "#/components/schemas/"
    if not ref.startswith(prefix):
        raise ValueError(f"unsupported $ref {ref}")
    return document["components"]["schemas"].get(ref[len(prefix):])


def violations(api, schema, value, path="$"):
    """Every way `value` breaks `schema`, as "path: what" lines; empty when it validates."""
    if schema is None:
        return []
    if "$ref" in schema:
        return violations(api, resolve(api, schema["$ref"]), value, path)
    if "oneOf" in schema:
        options = schema["oneOf"]
        discriminator = schema.get("discriminator")
        if discriminator and isinstance(value, dict):
            tag = value.get(discriminator["propertyName"])
            target = discriminator.get("mapping", {}).get(tag)
            if target is None:
                return [f"{path}: {discriminator['propertyName']} {tag!r} is none of the oneOf's types"]
            return violations(api, {"$ref": target}, value, path)
        matching = [o for o in options if not violations(api, o, value, path)]
        return [] if len(matching) == 1 else [f"{path}: matches {len(matching)} of the oneOf's schemas, not 1"]
    if value is None:
        return [f"{path}: null, which the contract allows nowhere (leave the key out)"]
    kind = schema.get("type")
    problems = []
    if kind == "object" or (kind is None and "properties" in schema):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not an object"]
        properties = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                problems.append(f"{path}: required key {key!r} missing")
        extra = schema.get("additionalProperties", False if properties else True)
        for key, item in value.items():
            if key in properties:
                problems += violations(api, properties[key], item, f"{path}.{key}")
            elif isinstance(extra, dict):
                problems += violations(api, extra, item, f"{path}.{key}")
            elif not extra:
                problems.append(f"{path}: key {key!r} is not in the contract")
        return problems
    if kind == "array":
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__}, not an array"]
        for index, item in enumerate(value):
            problems += violations(api, schema.get("items"), item, f"{path}[{index}]")
        return problems
    if kind == "string":
        if not isinstance(value, str):
            return [f"{path}: {value!r} is not a string"]
        form = schema.get("format")
        if form in ("int64", "uint64") and not re.fullmatch(r"-?\d+", value):
            problems.append(f"{path}: {value!r} is not an {form} (digits as a string)")
        if form == "date-time" and not DATE_TIME.match(value):
            problems.append(f"{path}: {value!r} is not a date-time (2020-12-14T10:16:45Z)")
        if form == "date" and not DATE.match(value):
            problems.append(f"{path}: {value!r} is not a date (2020-12-14)")
    elif kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            return [f"{path}: {value!r} is not an integer"]
        if schema.get("format") == "int32" and not -2**31 <= value < 2**31:
            problems.append(f"{path}: {value} does not fit an int32")
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return [f"{path}: {value!r} is not a number"]
    elif kind == "boolean":
        if not isinstance(value, bool):
            return [f"{path}: {value!r} is not a boolean"]
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{path}: {value!r} is not one of the contract's values")
    return problems


# The Play write methods the subset leaves out, with the discovery document's request and response.
WRITES = {
    "edits.tracks.update": {"request": {"$ref": "Track"}, "response": {"$ref": "Track"}},
    "edits.commit": {"response": {"$ref": "AppEdit"}},
}


def play_method(method):
    """(contract name, method entry) for a Play method id: the Developer API's, App Recovery's or WRITES'."""
    if method in WRITES:
        return "play", WRITES[method]
    for name in ("play", "recovery"):
        entry = spec(name)["methods"].get(method)
        if entry is not None:
            return name, entry
    raise ValueError(f"no contract names the Play method {method}")


def play_response(method, status):
    """The schema of Play's answer to a method (`edits.tracks.get`) with a status."""
    if status >= 400:
        return GOOGLE_ERROR
    response = play_method(method)[1].get("response")
    return response and {"$ref": response["$ref"]}


def play_request(method):
    """(contract name, schema) of the body a Play method takes, or None when it takes none."""
    name, entry = play_method(method)
    request = entry.get("request")
    return request and (name, {"$ref": request["$ref"]})


def asc_write(template, verb, status=None):
    """The schema of a write's request body (status None) or answer, from the analytics subset."""
    operation = spec("ascanalytics")["paths"][template][verb]
    if status is None:
        return operation["requestBody"]
    responses = operation["responses"]
    return responses.get(str(status)) or responses["400"]


def reporting_response(method, status):
    """The schema of the Play Developer Reporting API's answer to a method (`vitals.crashrate.query`)."""
    if status >= 400:
        return GOOGLE_ERROR
    response = spec("reporting")["methods"][method].get("response")
    return response and {"$ref": response["$ref"]}


def reporting_request(method):
    """The schema of a request body the Play Developer Reporting API takes for a method."""
    request = spec("reporting")["methods"][method].get("request")
    return request and {"$ref": request["$ref"]}


def asc_response(template, status, api="asc"):
    """The schema of App Store Connect's answer to `GET template` with a status."""
    responses = spec(api)["paths"][template]["get"]["responses"]
    entry = responses.get(str(status)) or (responses.get("400") if status >= 400 else None)
    if entry is None:
        raise ValueError(f"the contract has no {status} answer for GET {template}")
    return entry


def check(api, schema, body):
    """Violations of a body (bytes or text) against a schema; a body that is not JSON is one."""
    try:
        value = json.loads(body)
    except ValueError as error:
        return [f"$: not JSON ({error})"]
    return violations(api, schema, value)
