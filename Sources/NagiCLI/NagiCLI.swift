import Foundation

public enum NagiCommandLine {
    public static func exitAfterRunning(_ arguments: [String]) -> Never {
        exit(0)
    }
}
