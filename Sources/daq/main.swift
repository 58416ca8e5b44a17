import DAQKit

DAQCommand.main(plugins: BuiltinPlugins.all)
