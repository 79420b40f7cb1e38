import NagiDocuments
import NagiOptions
import NagiKit

extension LoudnessMeasurement {
    /// The line said on standard error when the target is out of reach.
    func shortfallLine(naming subject: String) -> String {
        "\(subject): --loudness \(NumberText.fixed(targetLUFS, decimals: 1)) LUFS would push the true peak past -1 dBTP; "
            + "reached \(NumberText.fixed(reachedLUFS, decimals: 1)) LUFS (\(NumberText.fixed(gainDecibels, decimals: 1)) dB on the calibrated level)"
    }
}
