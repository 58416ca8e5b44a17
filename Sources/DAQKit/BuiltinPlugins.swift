import DAQBLE
import DAQBarcode
import DAQCore
import DAQInfoManager
import DAQLSL
import DAQMotion
import DAQSampleLogger
import DAQStandard
import DAQStorage
import DAQTransport

/// Every plugin family shipped with `daq`.
///
/// It lives in DAQKit, beside the `daq` executable, rather than in DAQCLI: the command tree is
/// handed its plugins (``DAQCommand/main(plugins:)``), so a custom `daq` chooses them, and only
/// a program that wants every family links every family.
public enum BuiltinPlugins {
    /// Standard, Motion, SampleLogger, BLE, Barcode, Info Manager, Transport, LSL and Storage plugins.
    public static var all: [PluginDescriptor] {
        StandardPlugins.all + MotionPlugins.all + SampleLoggerPlugins.all + BLEPlugins.all + BarcodePlugins.all
            + InfoManagerPlugins.all + TransportPlugins.all + LSLPlugins.all + StoragePlugins.all
    }
}
