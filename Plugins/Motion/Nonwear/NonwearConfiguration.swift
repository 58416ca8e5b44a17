import DAQCore

/// What `motion.nonwear` does with the samples of a non-wear span.
public enum NonwearMode: String, ConfigEnum, Sendable {
    /// Passes every sample on with a boolean field (`field:`) saying whether it is non-wear.
    case flag
    /// Leaves the non-wear samples out; markers and events pass on.
    case drop
}

/// The keys of `motion.nonwear`: GGIR's rule (its 2023 approach, with its current 150 mg range)
/// and where its verdict goes.
public struct NonwearConfiguration: PluginConfiguration {
    @Setting("Length of the windows the rule is applied to; a whole number of steps.")
    var window = Seconds(3_600)
    @Setting("Windows start every step from the first sample's time; spans are found to a step.")
    var step = Seconds(900)
    @Setting(
        type: "double (mg)",
        "Standard deviation under which an axis is still in a window (its range under range_mg too).")
    var sdMg = 13.0
    @Setting(
        type: "double (mg)",
        "Range (highest − lowest value) under which an axis is still in a window; GGIR's nonwear_range_threshold.")
    var rangeMg = 150.0
    @Setting("A step is non-wear when at least this many axes (1 to 3) were still in a window over it.")
    var axes = 2
    @Setting("flag adds the field to every sample; drop leaves non-wear samples out.")
    var mode = NonwearMode.flag
    @Setting("The boolean field flag adds (what motion.enmo's `nonwear:` reads).")
    var field = "nonwear"
    @Setting("Field of the first axis, in g.") var x = "x"
    @Setting("Field of the second axis, in g.") var y = "y"
    @Setting("Field of the third axis, in g.") var z = "z"

    /// The longest window: the stage holds a window (and a step) of samples.
    static let longestWindow = 86_400.0

    public init() {}

    public func validate() throws {
        let s = step.value
        let w = window.value
        if !(s > 0) || !s.isFinite { throw $step.issue("must be more than 0 s, found \(s) s") }
        if !(w > 0) || w > Self.longestWindow {
            throw $window.issue(
                "must be more than 0 s and at most 24 h (the stage holds a window of samples), found \(w) s")
        }
        // Step and window disagree: the message points at the one the YAML wrote.
        let blameStep = $step.isWritten && !$window.isWritten
        if s > w {
            if blameStep { throw $step.issue("must not be longer than window (\(w) s), found \(s) s") }
            throw $window.issue("must be at least one step (\(s) s), found \(w) s")
        }
        if abs((w / s).rounded() * s - w) > 1e-9 * w {
            if blameStep { throw $step.issue("must divide window (\(w) s) into whole steps, found \(s) s") }
            throw $window.issue("must be a whole number of steps (\(s) s), found \(w) s")
        }
        if !(sdMg > 0) || !sdMg.isFinite { throw $sdMg.issue("must be more than 0 mg, found \(sdMg)") }
        if !(rangeMg > 0) || !rangeMg.isFinite { throw $rangeMg.issue("must be more than 0 mg, found \(rangeMg)") }
        if !(1...3).contains(axes) { throw $axes.issue("must be 1, 2 or 3, found \(axes)") }
        for (name, setting) in [(field, $field), (x, $x), (y, $y), (z, $z)] where name.isEmpty {
            throw setting.issue("must name a field")
        }
    }

    /// Steps per window.
    var stepsPerWindow: Int { Int((window.value / step.value).rounded()) }
}
