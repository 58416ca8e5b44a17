// The Python script of an exec scaffold, one per kind: each does what the Swift scaffold of the
// same kind does (a rising signal, a linear calibration, a tab-separated file), so a user can
// compare the two routes line for line.
extension PythonScaffold {
    var scriptText: String {
        let doc: String
        let body: String
        switch kind {
        case .source: (doc, body) = (sourceDoc, sourceBody)
        case .transform: (doc, body) = (transformDoc, transformBody)
        case .sink: (doc, body) = (sinkDoc, sinkBody)
        }
        return #"""
            #!/usr/bin/env python3
            """\#(name.typeName): an exec \#(kind.rawValue) for daq, written by `daq plugins new`.

            \#(doc)

            Settings come from the component's `config:` in the pipeline, in the first line daq
            writes (the hello). Lines written to stderr go to daq's log; a bad setting ends the
            program with a message there, which daq reports. Protocol: docs/exec-protocol.md.
            """
            \#(kind == .sink ? "import json\nimport os\nimport sys" : "import json\nimport sys")


            \#(body)

            if __name__ == "__main__":
                main()

            """#
    }

    private var sourceDoc: String {
        #"""
        Writes `count` samples, `rate` a second of run-clock time: {"uptime": i / rate, "seq": i,
        "value": i * step}. Replace `samples()` with reading your instrument. A source's stdin
        is closed after the hello; it writes one JSON object per line and exits with status 0.
        """#
    }

    private var sourceBody: String {
        #"""
        def settings(config):
            count = int(config.get("count", 10))
            rate = float(config.get("rate", 10))
            step = float(config.get("step", 1))
            if count < 0 or not rate > 0:
                sys.exit("config: count must be 0 or more and rate more than 0, got %r" % config)
            return count, rate, step


        def samples(count, rate, step):
            for i in range(count):
                yield {"uptime": i / rate, "seq": i, "value": i * step}


        def main():
            hello = json.loads(sys.stdin.readline() or "{}")
            for sample in samples(*settings(hello.get("config") or {})):
                sys.stdout.write(json.dumps(sample, separators=(",", ":")) + "\n")
            sys.stdout.flush()
        """#
    }

    private var transformDoc: String {
        #"""
        A linear calibration: `output` = `field` * `scale` + `offset` (a sample whose `field` is
        not a number gets null). Replace `calibrate()` with your computation. Each batch of
        samples daq writes ends with {"daq":"batch","batch":N}; answer {"daq":"ack","batch":N}
        once everything for it is written: daq passes output on only then.
        """#
    }

    private var transformBody: String {
        #"""
        def settings(config):
            field = str(config.get("field", "value"))
            output = str(config.get("output", field))
            scale = float(config.get("scale", 1))
            offset = float(config.get("offset", 0))
            if not field or not output:
                sys.exit("config: field and output must not be empty, got %r" % config)
            return field, output, scale, offset


        def calibrate(sample, field, output, scale, offset):
            x = sample.get(field)
            # bool is an int in Python, but not a measurement.
            if isinstance(x, (int, float)) and not isinstance(x, bool):
                sample[output] = x * scale + offset
            elif field in sample:
                sample[output] = None
            return sample


        def main():
            hello = json.loads(sys.stdin.readline())
            args = settings(hello.get("config") or {})
            out = sys.stdout
            for line in sys.stdin:
                message = json.loads(line)
                if message.get("daq") == "batch":
                    out.write('{"daq":"ack","batch":%d}\n' % message["batch"])
                    out.flush()
                    continue
                out.write(json.dumps(calibrate(message, *args), separators=(",", ":")) + "\n")
        """#
    }

    private var sinkDoc: String {
        #"""
        Writes one tab-separated line per data sample to `path`: `uptime`, then `fields`
        (default [value]); step markers and events are skipped. Replace the file with your
        destination. Each batch daq writes ends with {"daq":"batch","batch":N}; answering
        {"daq":"ack","batch":N} tells daq the batch is delivered, so it is sent only once the
        lines are on disk.
        """#
    }

    private var sinkBody: String {
        #"""
        def settings(config):
            path = config.get("path")
            fields = config.get("fields", ["value"])
            if not isinstance(path, str) or not path:
                sys.exit("config: path is required, got %r" % config)
            if not isinstance(fields, list) or not fields:
                sys.exit("config: fields must name at least one field, got %r" % config)
            return path, [str(f) for f in fields]


        def cell(value):
            if value is None:
                return ""
            if isinstance(value, bool):
                return "true" if value else "false"
            if isinstance(value, (dict, list)):
                return json.dumps(value, separators=(",", ":"))
            return str(value)


        def main():
            hello = json.loads(sys.stdin.readline())
            path, fields = settings(hello.get("config") or {})
            if os.path.dirname(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write("\t".join(["uptime"] + fields) + "\n")
                for line in sys.stdin:
                    message = json.loads(line)
                    if message.get("daq") == "batch":
                        f.flush()
                        os.fsync(f.fileno())
                        sys.stdout.write('{"daq":"ack","batch":%d}\n' % message["batch"])
                        sys.stdout.flush()
                        continue
                    if message.get("kind", "data") != "data":
                        continue
                    f.write("\t".join([cell(message.get("uptime"))] + [cell(message.get(k)) for k in fields]) + "\n")
        """#
    }
}
