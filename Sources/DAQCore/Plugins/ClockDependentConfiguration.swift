/// A plugin configuration some of whose values make sense on some run clocks only, such as a
/// calibration fitted in a first pass, which only the virtual clock makes.
///
/// The validator calls ``validate(clock:)`` after ``PluginConfiguration/validate()`` with the
/// pipeline's `clock:` (after `--set` overrides), so `daq validate` and `daq run` report the
/// problem at the key's line and column, as a configuration error, before any plugin is built.
public protocol ClockDependentConfiguration: PluginConfiguration {
    /// Checks the values against the run clock.
    /// - Throws: ``ConfigIssue`` naming the key whose value does not suit `clock`.
    func validate(clock: ClockMode) throws
}
