# Reads scanner strings (JSON Lines, {"code": ...}) with biip, an independent GS1 reader from
# PyPI, and writes one JSON object per line: the GTIN biip finds (14 digits), the GTIN of a
# UPC-E reading, and the element strings of a GS1 message, each null when biip finds none.
# Used by Tests/DAQBarcodeTests/GS1CrossCheckTests.swift.
import json
import sys

import biip

for line in open(sys.argv[1], encoding="utf-8"):
    code = json.loads(line)["code"]
    r = biip.parse(code)
    print(json.dumps({
        "gtin": r.gtin.as_gtin_14() if r.gtin else None,
        "upc": r.upc.as_gtin_14() if r.upc else None,
        "ais": [[e.ai.ai, e.value] for e in r.gs1_message.element_strings] if r.gs1_message else None,
    }))
