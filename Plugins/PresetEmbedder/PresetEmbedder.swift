import Foundation
import PackagePlugin

/// Embeds every JSON file under the package's `Presets/` folder into the target
/// as a generated `[relativePath: text]` table, so the built binary carries
/// its presets and `Presets/` stays the single source.
@main
struct PresetEmbedder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let presetsFolder = context.package.directoryURL.appending(path: "Presets")
        let generator = try context.tool(named: "PresetTableGenerator")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPresetTable.swift")
        let inputs = jsonFiles(under: presetsFolder)
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) presets",
                executable: generator.url,
                arguments: [presetsFolder.path, output.path],
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }

    private func jsonFiles(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker where url.pathExtension == "json" {
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }
}
