import Foundation

/// Waiting for something a child process does, without a fixed sleep.
public enum Poll {
    /// Checks `condition` every `interval` seconds until it holds or `seconds` have passed; whether it held.
    public static func until(seconds: Double, every interval: Double = 0.005, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: interval)
        }
        return true
    }
}
