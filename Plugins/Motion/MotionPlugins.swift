import DAQCore

/// The plugins of the Motion family: accelerometer (and other IMU) recording replay and
/// motion transforms.
public enum MotionPlugins {
    /// Every Motion plugin.
    public static let all: [PluginDescriptor] = []
}
