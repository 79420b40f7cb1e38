import Foundation
import PackagePlugin

/// Embeds a folder of the package into the target it is applied to, as a generated `[relativePath: text]` table,
/// so the built binary carries those files and the folder stays their single source: `Presets/` (the JSON
/// presets, as text) into NagiPresets, `Web/` (the pages and their assets, as base64) into NagiServe.
@main
struct FileEmbedder: BuildToolPlugin {
    /// What each target embeds: the folder, the table's name, the file extensions taken (nil: every file) and
    /// whether the text is base64 (binary files) rather than the files' own UTF-8.
    private static let folders: [String: (folder: String, table: String, extensions: Set<String>?, base64: Bool)] = [
        "NagiPresets": ("Presets", "embeddedPresetTable", ["json"], false),
        "NagiServe": ("Web", "embeddedWebTable", nil, true),
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let choice = Self.folders[target.name] else { return [] }
        let folder = context.package.directoryURL.appending(path: choice.folder)
        let generator = try context.tool(named: "EmbeddedTableGenerator")
        let output = context.pluginWorkDirectoryURL.appending(path: "Embedded\(choice.folder)Table.swift")
        let inputs = files(under: folder, extensions: choice.extensions)
        var arguments = [folder.path, output.path, choice.table]
        if choice.base64 { arguments.append("--base64") }
        if let extensions = choice.extensions { arguments += extensions.sorted().map { "--extension=\($0)" } }
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files of \(choice.folder)/",
                executable: generator.url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }

    private func files(under folder: URL, extensions: Set<String>?) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            if let extensions, !extensions.contains(url.pathExtension) { continue }
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }
}
