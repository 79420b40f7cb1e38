import NagiOptions
import Breath
import NagiDocuments
import NagiKit

/// `nagi presets`: every built-in and user preset with a one-line description.
enum PresetsCommand {
    static let names = Option<PresetCatalog.Category>(["--names"], valueName: "KIND", help: "Print only the names of one kind, one a line, for scripts and shell completion.")

    static let spec = CommandSpec(
        name: "presets",
        summary: "List the built-in and user presets: patterns, soundscapes and courses.",
        options: [names.spec],
        discussion: """
        Add or override presets by putting JSON files in $XDG_CONFIG_HOME/nagi/patterns/, \
        soundscapes/ or courses/ (default ~/.config/nagi/). A user preset with the name of a \
        built-in one replaces it. A path to a JSON file works wherever a preset name does.
        """
    )

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let catalog = PresetEnvironment.catalog()
        let namesKind: PresetCatalog.Category?
        do {
            namesKind = try arguments[names]
        } catch {
            throw .arguments(error)
        }
        if let category = namesKind {
            let names = catalog.names(in: category) + (category == .soundscapes ? ["auto"] : [])
            Console.out(names.map { TerminalText.printable($0) + "\n" }.joined())
            return
        }
        var lines: [String] = []
        for category in PresetCatalog.Category.allCases {
            let entries = catalog.entries(in: category)
            lines.append("\(category.rawValue.capitalized) (\(entries.count)):")
            let width = entries.map(\.name.count).max() ?? 0
            for entry in entries {
                let padding = String(repeating: " ", count: width - entry.name.count)
                let origin = entry.origin == .builtin ? "" : " [user: \(entry.fileDescription)]"
                lines.append(TerminalText.printable("  \(entry.name)\(padding)  \(entry.summary)\(origin)"))
            }
            if category == .soundscapes {
                let padding = String(repeating: " ", count: max(0, width - 4))
                lines.append("  auto\(padding)  \(SoundscapeResolver.autoSummary)")
            }
            lines.append("")
        }
        if let folder = PresetEnvironment.userPresetFolder {
            lines.append(TerminalText.printable("User presets: \(folder)/{patterns,soundscapes,courses}/*.json"))
        }
        let skipped = PresetEnvironment.skippedUserFiles()
        if !skipped.isEmpty {
            lines.append(TerminalText.printable("Skipped (not regular files): " + skipped.joined(separator: ", ")))
        }
        Console.out(lines.joined(separator: "\n") + "\n")
    }
}
