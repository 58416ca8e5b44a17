import DAQCLI
import DAQStandard

DAQCommand.main(plugins: StandardPlugins.all)
