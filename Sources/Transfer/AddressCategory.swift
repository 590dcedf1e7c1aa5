/// What kind of network an IP address belongs to, for deciding whether a
/// server-side fetch may connect to it.
public enum AddressCategory: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Routable on the internet.
    case `public`
    /// This host: 127.0.0.0/8, ::1.
    case loopback
    /// Private networks: 10/8, 172.16/12, 192.168/16, IPv6 unique local fc00::/7
    /// and the deprecated site-local fec0::/10.
    case `private`
    /// Link-local: 169.254/16 (where cloud metadata services answer), fe80::/10.
    case linkLocal
    /// Carrier-grade NAT, the shared address space 100.64/10.
    case sharedAddressSpace
    /// 0.0.0.0 and ::, which reach this host when connected to.
    case unspecified
    /// 224/4, ff00::/8.
    case multicast
    /// Special-purpose and unallocated ranges: 0/8, 240/4, broadcast, IETF
    /// protocol assignments, benchmarking, documentation, IPv6 outside 2000::/3.
    case reserved

    public var description: String {
        switch self {
        case .public: "public"
        case .loopback: "loopback"
        case .private: "private"
        case .linkLocal: "link-local"
        case .sharedAddressSpace: "carrier-grade NAT"
        case .unspecified: "unspecified"
        case .multicast: "multicast"
        case .reserved: "reserved"
        }
    }

    /// The category of `address`. IPv6 forms that carry an IPv4 address
    /// (mapped, compatible, NAT64) take the category of the IPv4 address.
    public init(of address: IPAddress) {
        if address.isIPv4 {
            self = Self.ipv4(address.bytes)
        } else if let embedded = address.embeddedIPv4 {
            self = Self.ipv4(embedded.bytes)
        } else {
            self = Self.ipv6(address.bytes)
        }
    }

    private static func ipv4(_ b: [UInt8]) -> AddressCategory {
        switch (b[0], b[1], b[2], b[3]) {
        case (0, 0, 0, 0): .unspecified
        case (0, _, _, _): .reserved
        case (127, _, _, _): .loopback
        case (10, _, _, _), (172, 16...31, _, _), (192, 168, _, _): .private
        case (169, 254, _, _): .linkLocal
        case (100, 64...127, _, _): .sharedAddressSpace
        case (224...239, _, _, _): .multicast
        case (240...255, _, _, _): .reserved  // with the broadcast address 255.255.255.255
        case (192, 0, 0, _), (192, 0, 2, _), (198, 18...19, _, _), (198, 51, 100, _), (203, 0, 113, _): .reserved
        default: .public
        }
    }

    private static func ipv6(_ b: [UInt8]) -> AddressCategory {
        if b.allSatisfy({ $0 == 0 }) { return .unspecified }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
        if b[0] == 0xff { return .multicast }
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return .linkLocal }
        if b[0] == 0xfe && b[1] & 0xc0 == 0xc0 { return .private }  // site-local, deprecated
        if b[0] & 0xfe == 0xfc { return .private }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8 { return .reserved }  // documentation
        if b[0] & 0xe0 != 0x20 { return .reserved }  // outside global unicast 2000::/3
        return .public
    }
}
