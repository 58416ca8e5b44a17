import DAQCore

/// The plugins of the Motion family: accelerometer (and other IMU) recording replay and
/// motion transforms; the daily activity summary.
public enum MotionPlugins {
    /// Every Motion plugin.
    public static let all: [PluginDescriptor] = [
        .source(MotionReplaySource.self, module: "Motion"),
        .transform(MagnitudeTransform.self, module: "Motion"),
        .transform(LowpassTransform.self, module: "Motion"),
        .transform(HighpassTransform.self, module: "Motion"),
        .transform(ResampleTransform.self, module: "Motion"),
        .transform(NonwearTransform.self, module: "Motion"),
        .transform(EnmoTransform.self, module: "Motion"),
        .transform(MadTransform.self, module: "Motion"),
        .transform(AnglezTransform.self, module: "Motion"),
        .sink(DailySummarySink.self, module: "Motion"),
        .transform(CalibrateTransform.self, module: "Motion"),
    ]
}
