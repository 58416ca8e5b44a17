@_exported import DAQBLE
@_exported import DAQBarcode
// DAQKit: a custom `daq` in one import, `DAQCommand.main(plugins: BuiltinPlugins.all + ...)`: the
// command tree and every built-in plugin family. A package of plugins needs much less: DAQCore
// and DAQTesting, which compile no networking (see Package.swift).
@_exported import DAQCLI
@_exported import DAQCore
@_exported import DAQInfoManager
@_exported import DAQLSL
@_exported import DAQMotion
@_exported import DAQSampleLogger
@_exported import DAQStandard
@_exported import DAQTransport
