/// What a run hands each of its stages for the data path, each part behind its own lock, so no
/// batch asks the run itself anything.
struct RunLinks: Sendable {
    let limits: RunLimits
    let watermark: Watermark
    let steps: StepGate
}
