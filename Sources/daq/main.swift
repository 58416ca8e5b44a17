import DAQCLI

DAQCommand.main(plugins: BuiltinPlugins.all)
