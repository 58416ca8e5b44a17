import DAQCore

/// Whether samples are what their stream descriptor says: each field declared, with a type that
/// takes its value, in the declared order. For a plugin's tests; ``ClockInvariance`` checks the
/// same of every batch of a whole pipeline.
public enum DescriptorFit {
    /// Fields not declared, or declared with a type that does not take the value, one line each,
    /// sorted; empty when every sample fits. `ignoring` names fields a test leaves out (free ones).
    public static func problems(
        _ samples: [Sample], _ d: StreamDescriptor, ignoring: (String) -> Bool = { _ in false }
    ) -> [String] {
        var found: Set<String> = []
        for s in samples {
            for (name, value) in s.fields.pairs where !ignoring(name) {
                guard let f = d.field(name) else {
                    found.insert("\(name) is not declared")
                    continue
                }
                if !f.type.accepts(value) { found.insert("\(name): \(f.type) does not take \(value)") }
            }
        }
        return found.sorted()
    }

    /// Whether `s` has its fields in the descriptor's order.
    public static func inOrder(_ s: Sample, _ d: StreamDescriptor) -> Bool {
        let at = s.fields.keys.compactMap { d.fieldIndex($0) }
        return at == at.sorted()
    }
}
