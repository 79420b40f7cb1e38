import NagiKit
import NagiOptions

/// `nagi describe`: a session's phases with exact times and frames (`DescribeOptions`), or what a player reads
/// from an audio file nagi wrote (`FileTagsText`).
enum DescribeCommand {
    static let spec = DescribeOptions.spec

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        if let path = arguments.positionals.first, let format = FileTagsText.audioFormat(of: path) {
            Console.out(try FileTagsText.text(path: path, format: format))
            return
        }
        let describe = try DescribeOptions(arguments, catalog: PresetEnvironment.catalog())
        Console.out(arguments[DescribeOptions.json] ? describe.json : describe.table)
    }
}
