// A `daq` with every verb and built-in plugin, plus this package's lab plugins.
import DAQKit
import LabPlugins

DAQCommand.main(plugins: BuiltinPlugins.all + LabPlugins.all)
