/// The presets carried inside the binary, generated from the package's `Presets/` folder.
public enum BuiltinPresets {
    /// Every built-in preset file's text, keyed by its path below `Presets/` (`"patterns/box.json"`).
    public static let files: [String: String] = embeddedPresetTable
}
