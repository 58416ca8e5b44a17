import DAQCore

/// The keys of `motion.calibrate`.
public struct CalibrationConfiguration: ClockDependentConfiguration {
    @Setting(
        "auto fits offset and gain against gravity in a first pass over the recording (virtual clock only); off passes samples unchanged; {offset: [x, y, z], gain: [x, y, z]} (optionally temperature: [x, y, z] g/°C and reference: °C) applies those; {from: path} reuses the fit a run recorded in its manifest.json, or a JSON file with offset and gain."
    )
    var calibration = CalibrationChoice.auto
    @Setting("Length of the windows checked for stillness.") var window = Seconds(10)
    @Setting(
        type: "double (mg)", "A window is still when every axis's standard deviation in it is under this.")
    var stillSd = 13.0
    @Setting(type: "double (mg)", "The fit is applied only when the error after it is under this.")
    var maxError = 10.0
    @Setting(
        type: "double (g)", "The fit is applied only when every axis has still windows beyond +this and −this.")
    var cube = 0.3
    @Setting("The fewest still windows to fit with.") var minWindows = 50
    @Setting("Field of the first axis, in g.") var x = "x"
    @Setting("Field of the second axis, in g.") var y = "y"
    @Setting("Field of the third axis, in g.") var z = "z"
    @Setting(
        "Field of the temperature, °C: when the still windows' temperatures vary, a temperature term is fitted too; empty fits none."
    )
    var temperature = "temperature"

    public init() {}

    public func validate() throws {
        if let (key, message) = calibration.problem() {
            throw ConfigIssue(key: "calibration.\(key)", message)
        }
        if !(window.value > 0) { throw $window.issue("must be more than 0 s") }
        if !(stillSd > 0) { throw $stillSd.issue("must be more than 0 mg") }
        if !(maxError > 0) { throw $maxError.issue("must be more than 0 mg") }
        if !(cube > 0 && cube < 1) { throw $cube.issue("must be between 0 and 1 g") }
        if minWindows < 1 { throw $minWindows.issue("must be at least 1") }
        for (name, setting) in [(x, $x), (y, $y), (z, $z)] where name.isEmpty {
            throw setting.issue("must name a field")
        }
    }

    public func validate(clock: ClockMode) throws {
        if case .auto = calibration, clock != .virtual {
            throw $calibration.issue(Self.autoNeedsVirtual(clock))
        }
    }

    /// Why `auto` cannot run on `clock`, and what to do instead.
    static func autoNeedsVirtual(_ clock: ClockMode) -> String {
        "auto fits the recording in a first pass over it, which only the virtual clock makes, and this run's clock is \(clock.rawValue). Run it once with clock: virtual and give that run's fit with calibration: {from: OUT/<run>/manifest.json}, or give calibration: {offset: [x, y, z], gain: [x, y, z]}"
    }
}
