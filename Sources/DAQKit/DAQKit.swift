// DAQKit: everything a plugin author or an embedding application needs, in one import.
@_exported import DAQCLI
@_exported import DAQCore
@_exported import DAQMotion
@_exported import DAQSampleLogger
@_exported import DAQStandard
@_exported import DAQBLE
@_exported import DAQBarcode
@_exported import DAQInfoManager
@_exported import DAQTransport
