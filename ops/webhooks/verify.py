#!/usr/bin/env python3
"""Verifies webhook deliveries with PyPI's standardwebhooks (the reference
implementation of the scheme), independently of Spotter's own code.

usage: verify.py SECRET < deliveries.json
where deliveries.json is a JSON array of {"headers": {name: value}, "body": text,
"received"?: unix seconds}. A delivery with "received" is judged as of that
moment (the scheme's 5-minute timestamp tolerance counts from its arrival, not
from whenever a slow test run gets round to checking it).
Prints one line per delivery, "ok" or "bad: reason", and exits 1 if any is bad.
The package is found on PYTHONPATH (ops/fetch-test-data unpacks it under
$SPOTTER_TEST_DATA_DIR/python).
"""
import json
import sys
from datetime import datetime

import standardwebhooks.webhooks
from standardwebhooks import Webhook


class ArrivalTime(datetime):
    """The clock the verifier reads: the delivery's arrival time, when known."""
    arrival = None

    @classmethod
    def now(cls, tz=None):
        return datetime.now(tz) if cls.arrival is None else datetime.fromtimestamp(cls.arrival, tz)


standardwebhooks.webhooks.datetime = ArrivalTime

secret = sys.argv[1]
webhook = Webhook(secret)
failed = False
for delivery in json.load(sys.stdin):
    ArrivalTime.arrival = delivery.get("received")
    try:
        webhook.verify(delivery["body"], delivery["headers"])
        print("ok")
    except Exception as error:  # the verifier's own error, whatever its class
        failed = True
        print(f"bad: {error}")
sys.exit(1 if failed else 0)
