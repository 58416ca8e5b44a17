import Yams

extension StreamGraph {
    /// What would stop `spec` from starting, found without running it: every plugin is built
    /// and every output described, as a run does before its first sample, so a missing or
    /// unreadable input file (a recording's header is read) is an error at its `path:` line.
    /// Empty when the pipeline would start.
    public static func startDiagnostics(_ spec: PipelineSpec) -> [Diagnostic] {
        do {
            _ = try describe(spec)
            return []
        } catch let error as PipelineStartError {
            let (line, column, key) = place(of: error.component, in: spec.file)
            return [
                Diagnostic(
                    file: spec.file, line: line, column: column, path: key,
                    message: "cannot start: \(error.message)")
            ]
        } catch {
            return [Diagnostic(file: spec.file, message: "cannot start: \(error)")]
        }
    }

    /// The line and column of `component`'s `path:` value (where an input file is named), else of
    /// the component itself, with the key path to report.
    static func place(of component: String, in file: String) -> (Int?, Int?, String) {
        let parts = component.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let root = try? YAMLFile.compose(path: file, kind: "a pipeline"),
            let entry = root.pair(parts[0])?.value.pair(parts[1])
        else { return (nil, nil, component) }
        if let path = entry.value.pair("path"), let mark = path.value.mark {
            return (mark.line, mark.column, component + ".path")
        }
        return (entry.key.mark?.line, entry.key.mark?.column, component)
    }
}
