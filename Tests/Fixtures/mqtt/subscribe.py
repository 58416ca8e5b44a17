"""Subscribes to an MQTT broker with paho-mqtt (PyPI) and prints what arrives, read by Python's
json module: an outside reader of the messages DAQKit's `mqtt` sink publishes.

    subscribe.py HOST PORT TOPIC COUNT

Prints `subscribed` once the broker acknowledged the subscription, then one JSON line per object
of every message: {"topic": …, "qos": …, "fields": {key: [Python type name, value as JSON]}}, so
the test sees the types and values Python's json gives (3 an int, 3.0 a float). Exits 0 after COUNT objects
without a `kind` (data samples), 3 when 120 s pass first.
Used by Tests/DAQTransportTests/OutsideSubscriberTests.swift.
"""
import json
import sys
import time

import paho.mqtt.client as mqtt

host, port, topic, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
data = 0


def on_connect(client, userdata, flags, reason_code, properties):
    client.subscribe(topic, qos=1)


def on_subscribe(client, userdata, mid, reason_codes, properties):
    print("subscribed", flush=True)


def on_message(client, userdata, message):
    global data
    payload = json.loads(message.payload)
    for item in payload if isinstance(payload, list) else [payload]:
        fields = {key: [type(value).__name__, json.dumps(value)] for key, value in item.items()}
        print(json.dumps({"topic": message.topic, "qos": message.qos, "fields": fields}), flush=True)
        data += "kind" not in item


client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="paho-oracle")
client.on_connect = on_connect
client.on_subscribe = on_subscribe
client.on_message = on_message
client.connect(host, port)
deadline = time.monotonic() + 120
while data < count and time.monotonic() < deadline:
    client.loop(timeout=0.1)
client.disconnect()
sys.exit(0 if data >= count else 3)
