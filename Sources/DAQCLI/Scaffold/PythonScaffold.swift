import DAQCore

/// What `daq plugins new NAME --kind KIND --exec python` writes: a Python script speaking the
/// exec protocol (docs/exec-protocol.md) for the kind, a unittest that runs it over pipes as
/// `daq` does, a pipeline using it as `type: exec`, and a README. Standard library only.
struct PythonScaffold {
    let name: ScaffoldName
    let kind: PluginKind

    var script: String { name.pythonFile(kind) }
    var pipelineFile: String { "\(name.typeName).yaml" }
    /// Where the pipeline writes, relative to the folder it runs in.
    var outputPath: String { kind == .sink ? "out/\(name.typeName).tsv" : "out/\(name.typeName).jsonl" }

    /// Every file, paths relative to the output folder.
    var files: [ScaffoldFile] {
        [
            ScaffoldFile(path: script, contents: scriptText, executable: true),
            ScaffoldFile(path: "test_\(script)", contents: testText),
            ScaffoldFile(path: pipelineFile, contents: pipeline),
            ScaffoldFile(path: "README.md", contents: readme),
        ]
    }

    var readme: String {
        #"""
        # \#(name.typeName)

        A `daq` \#(kind.rawValue) in Python, run as `type: exec`: `daq` starts `\#(script)`
        and speaks JSON Lines with it over stdin and stdout (the exec protocol, docs/exec-protocol.md
        in DAQKit). Written by `daq plugins new \#(name.typeName) --kind \#(kind.rawValue) --exec python`; its test
        and pipeline pass as generated. Only Python's standard library is used.

        ```sh
        python3 -m unittest -v          # runs the script over pipes, as daq does
        daq run \#(pipelineFile)         # from this folder; writes \#(outputPath)
        ```

        Settings go in the component's `config:` in the pipeline; the script reads them from the
        first line `daq` writes (the hello). What it writes to stderr appears in `daq`'s log.

        """#
    }

    var pipeline: String {
        let header = #"""
            # An example for the \#(name.typeName) exec \#(kind.rawValue), written by `daq plugins new`.
            # Run it from this folder (the command's path is relative to where daq runs):
            #   daq run \#(pipelineFile)
            name: \#(name.typeName)-example
            clock: virtual           # as fast as the data allow; realtime for live instruments

            """#
        let counter = #"""
            sources:
              counter:
                type: generator
                signal: counter
                rate: 10
                count: 20

            """#
        let component = name.typeName.replacingOccurrences(of: ".", with: "_")
        switch kind {
        case .source:
            return header + #"""
                sources:
                  \#(component):
                    type: exec
                    command: [python3, \#(script)]
                    config: { count: 20, rate: 10, step: 0.5 }
                sinks:
                  out:
                    type: file
                    inputs: [\#(component)]
                    path: ${OUTPUT:-\#(outputPath)}
                    format: jsonl
                    markers: false

                """#
        case .transform:
            return header + counter + #"""
                transforms:
                  \#(component):
                    type: exec
                    inputs: [counter]
                    command: [python3, \#(script)]
                    config: { field: value, output: calibrated, scale: 2, offset: 1 }
                sinks:
                  out:
                    type: file
                    inputs: [\#(component)]
                    path: ${OUTPUT:-\#(outputPath)}
                    format: jsonl
                    markers: false

                """#
        case .sink:
            return header + counter + #"""
                sinks:
                  \#(component):
                    type: exec
                    inputs: [counter]
                    command: [python3, \#(script)]
                    config: { path: "${OUTPUT:-\#(outputPath)}", fields: [value, seq] }

                """#
        }
    }
}
