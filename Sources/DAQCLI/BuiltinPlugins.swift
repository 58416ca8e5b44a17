import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQStandard

/// Every plugin family shipped with `daq`.
public enum BuiltinPlugins {
    /// Standard, Motion and SampleLogger plugins.
    public static var all: [PluginDescriptor] {
        StandardPlugins.all + MotionPlugins.all + SampleLoggerPlugins.all
    }
}
