import NagiOptions
/// `nagi completions bash|zsh|fish`: a completion script generated from the same specs as `--help`.
enum CompletionsCommand {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        name: "completions",
        summary: "Print a shell completion script for bash, zsh or fish.",
        positionals: [PositionalSpec(name: "SHELL", help: "bash, zsh or fish.", completion: .words(shells))],
        discussion: """
        The script completes commands, options, option values, preset names (built-in and your own, \\
        asked of `nagi presets --names` as you type) and course names. It is generated from the same \\
        command descriptions as --help, so it cannot drift from them. Install it:

          nagi completions bash > ~/.local/share/bash-completion/completions/nagi
          nagi completions zsh > ~/.zfunc/_nagi    # with fpath+=(~/.zfunc) before compinit
          nagi completions fish > ~/.config/fish/completions/nagi.fish
        """
    )

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let shell = arguments.positionals.first ?? ""
        let root = NagiCommandLine.rootSpec
        switch shell {
        case "bash": Console.out(CompletionScript.bash(root: root))
        case "zsh": Console.out(CompletionScript.zsh(root: root))
        case "fish": Console.out(CompletionScript.fish(root: root))
        default:
            throw .arguments(shell.isEmpty ? .missingArgument("SHELL") : .invalidValue(option: "SHELL", value: shell, expected: ParsedArguments.describeChoices(shells)))
        }
    }
}
