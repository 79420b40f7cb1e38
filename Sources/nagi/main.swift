import NagiCLI

NagiCommandLine.exitAfterRunning(CommandLine.arguments)
