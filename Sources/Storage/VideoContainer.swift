/// The container an upload's first bytes say it is. Decoding is the worker's
/// business; the API only refuses, before any job is made, what no video
/// container starts with (a PDF renamed `.mp4`).
public enum VideoContainer: String, Sendable {
    case mp4, matroska, avi, ogg, flv, mpegts

    /// The container `lead` (an upload's first 12 bytes or more, unless the
    /// upload is shorter) starts like; nil for anything else.
    public init?(lead: [UInt8]) {
        func at(_ offset: Int, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return lead.count >= offset + bytes.count && Array(lead[offset..<offset + bytes.count]) == bytes
        }
        switch true {
        case at(4, "ftyp"): self = .mp4  // MP4, QuickTime, 3GP
        case lead.starts(with: [0x1A, 0x45, 0xDF, 0xA3]): self = .matroska  // and WebM
        case at(0, "RIFF") && at(8, "AVI "): self = .avi
        case at(0, "OggS"): self = .ogg
        case at(0, "FLV"): self = .flv
        // A transport stream packet: the sync byte, then no transport error flag.
        case lead.count >= 4 && lead[0] == 0x47 && lead[1] & 0x80 == 0: self = .mpegts
        default: return nil
        }
    }
}
