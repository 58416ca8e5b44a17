// The unittest of an exec scaffold: it runs the script as daq does, a separate process fed
// protocol lines on stdin, so it checks the protocol as well as the computation.
extension PythonScaffold {
    var testText: String {
        #"""
        """Tests of \#(script): runs it over pipes with the lines daq would write.

            python3 -m unittest -v
        """
        import json
        import os
        import subprocess
        import sys
        import tempfile
        import unittest

        SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "\#(script)")


        def hello(config):
            return {"daq": "hello", "protocol": 1, "role": "\#(kind.rawValue)", "component": "under-test",
                    "pipeline": "test", "config": config}


        def run(*messages):
            """Runs the script with `messages` as its stdin lines; returns the finished process."""
            stdin = "".join(json.dumps(m) + "\n" for m in messages)
            return subprocess.run([sys.executable, SCRIPT], input=stdin, capture_output=True, text=True, timeout=60)


        def lines(done):
            if done.returncode != 0:
                raise AssertionError("exit status %d; stderr: %s" % (done.returncode, done.stderr))
            return [json.loads(line) for line in done.stdout.splitlines()]


        class \#(name.camel)Test(unittest.TestCase):
        \#(cases)
        if __name__ == "__main__":
            unittest.main()

        """#
    }

    private var cases: String {
        switch kind {
        case .source:
            return #"""
                    def test_writes_count_samples_at_rate(self):
                        out = lines(run(hello({"count": 4, "rate": 2, "step": 0.5})))
                        self.assertEqual([s["uptime"] for s in out], [0, 0.5, 1, 1.5])
                        self.assertEqual([s["value"] for s in out], [0, 0.5, 1, 1.5])
                        self.assertEqual([s["seq"] for s in out], [0, 1, 2, 3])

                    def test_a_bad_rate_fails_with_a_message(self):
                        done = run(hello({"rate": 0}))
                        self.assertNotEqual(done.returncode, 0)
                        self.assertIn("rate more than 0", done.stderr)

                """#
        case .transform:
            return #"""
                    def test_calibrates_and_acknowledges_each_batch(self):
                        out = lines(run(
                            hello({"scale": 2, "offset": -1, "output": "calibrated"}),
                            {"stream": "s", "uptime": 0, "value": 1.5},
                            {"stream": "s", "uptime": 1, "value": "n/a"},
                            {"daq": "batch", "batch": 1, "samples": 2},
                            {"stream": "s", "uptime": 2, "value": 4},
                            {"daq": "batch", "batch": 2, "samples": 1},
                        ))
                        self.assertEqual([m.get("calibrated", "-") for m in out], [2.0, None, "-", 7, "-"])
                        self.assertEqual(out[2], {"daq": "ack", "batch": 1})
                        self.assertEqual(out[4], {"daq": "ack", "batch": 2})
                        self.assertEqual(out[1]["value"], "n/a")

                    def test_an_empty_field_fails_with_a_message(self):
                        done = run(hello({"field": ""}))
                        self.assertNotEqual(done.returncode, 0)
                        self.assertIn("must not be empty", done.stderr)

                """#
        case .sink:
            return #"""
                    def test_writes_data_lines_and_acknowledges_after_writing(self):
                        with tempfile.TemporaryDirectory() as folder:
                            path = os.path.join(folder, "sub", "out.tsv")
                            out = lines(run(
                                hello({"path": path, "fields": ["value", "note"]}),
                                {"stream": "s", "uptime": 0, "stepPath": "a", "kind": "marker"},
                                {"stream": "s", "uptime": 0.5, "value": 1.5, "note": "ok"},
                                {"stream": "s", "uptime": 1, "value": None},
                                {"daq": "batch", "batch": 1, "samples": 3},
                            ))
                            self.assertEqual(out, [{"daq": "ack", "batch": 1}])
                            with open(path, encoding="utf-8") as f:
                                self.assertEqual(f.read(), "uptime\tvalue\tnote\n0.5\t1.5\tok\n1\t\t\n")

                    def test_a_missing_path_fails_with_a_message(self):
                        done = run(hello({}))
                        self.assertNotEqual(done.returncode, 0)
                        self.assertIn("path is required", done.stderr)

                """#
        }
    }
}
