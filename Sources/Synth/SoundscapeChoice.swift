/// Which built-in soundscape suits a moment, after the sky by hour (docs/sound-design.md § 9): day, dusk, night.
public enum SoundscapeChoice {
    /// The default soundscape: the calm sea.
    public static let defaultName = "horizon"

    /// The built-in soundscapes, by preset name (`Presets/soundscapes/NAME.json`).
    public static let builtinNames = ["horizon", "dusk", "night", "rain"]

    /// The soundscape for a local hour (0…23): 6–18 "horizon", 19–20 "dusk", otherwise "night".
    public static func autoName(hour: Int) -> String {
        switch hour {
        case 6...18: "horizon"
        case 19...20: "dusk"
        default: "night"
        }
    }
}
