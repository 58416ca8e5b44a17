import DAQBarcode
import DAQBLE
import DAQCore
import DAQInfoManager
import DAQMotion
import DAQSampleLogger
import DAQStandard
import DAQTransport

/// Every plugin family shipped with `daq`.
public enum BuiltinPlugins {
    /// Standard, Motion, SampleLogger, BLE, Barcode, Info Manager and Transport plugins.
    public static var all: [PluginDescriptor] {
        StandardPlugins.all + MotionPlugins.all + SampleLoggerPlugins.all + BLEPlugins.all + BarcodePlugins.all
            + InfoManagerPlugins.all + TransportPlugins.all
    }
}
