import Testing
import Transfer

/// The address classification that the policy applies to every connection,
/// as a pure function of the resolved address.
@Suite("Address categories")
struct AddressCategoryTests {
    @Test(
        "IPv4",
        arguments: [
            ("8.8.8.8", AddressCategory.public), ("1.1.1.1", .public), ("172.15.255.255", .public),
            ("172.32.0.1", .public), ("100.63.255.255", .public), ("100.128.0.1", .public), ("223.255.255.255", .public),
            ("127.0.0.1", .loopback), ("127.255.255.254", .loopback),
            ("10.0.0.1", .private), ("10.255.255.255", .private), ("172.16.0.1", .private), ("172.31.255.255", .private),
            ("192.168.1.1", .private),
            ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal),
            ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace),
            ("0.0.0.0", .unspecified),
            ("224.0.0.1", .multicast), ("239.255.255.250", .multicast),
            ("0.1.2.3", .reserved), ("240.0.0.1", .reserved), ("255.255.255.255", .reserved), ("192.0.0.8", .reserved),
            ("192.0.2.1", .reserved), ("198.18.0.1", .reserved), ("198.19.255.255", .reserved),
            ("198.51.100.7", .reserved), ("203.0.113.5", .reserved),
        ])
    func ipv4(text: String, category: AddressCategory) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressCategory(of: address) == category)
    }

    @Test(
        "IPv6",
        arguments: [
            ("2606:4700:4700::1111", AddressCategory.public), ("2001:4860:4860::8888", .public),
            ("::1", .loopback), ("::", .unspecified),
            ("fe80::1", .linkLocal), ("febf:ffff::1", .linkLocal),
            ("fc00::1", .private), ("fd12:3456:789a::1", .private), ("fec0::1", .private),
            ("ff02::1", .multicast), ("ff0e::101", .multicast),
            ("2001:db8::1", .reserved), ("100::1", .reserved), ("4000::1", .reserved), ("::2:1", .reserved),
        ])
    func ipv6(text: String, category: AddressCategory) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressCategory(of: address) == category)
    }

    @Test(
        "IPv6 forms of IPv4 addresses take the IPv4 address's category",
        arguments: [
            ("::ffff:127.0.0.1", AddressCategory.loopback), ("::ffff:7f00:1", .loopback),
            ("::ffff:10.1.2.3", .private), ("::ffff:169.254.169.254", .linkLocal), ("::ffff:100.64.0.1", .sharedAddressSpace),
            ("::ffff:0.0.0.0", .unspecified), ("::ffff:8.8.8.8", .public),
            ("::127.0.0.1", .loopback), ("::192.168.0.1", .private),
            ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::808:808", .public),
        ])
    func embeddedIPv4(text: String, category: AddressCategory) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressCategory(of: address) == category)
    }

    @Test("Addresses parse and print in their usual text")
    func text() throws {
        #expect(try #require(IPAddress("127.0.0.1")).bytes == [127, 0, 0, 1])
        #expect(try #require(IPAddress("::ffff:7f00:1")).description == "::ffff:127.0.0.1")
        #expect(try #require(IPAddress("FE80:0:0::1")).description == "fe80::1")
        #expect(IPAddress(bytes: [10, 0, 0, 1])?.description == "10.0.0.1")
        for text in ["", "localhost", "256.0.0.1", "1.2.3", "1.2.3.4.5", "::g", "[::1]", "127.0.0.1/8"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }

    @Test("The default policy allows public addresses only; others are opted into by category")
    func policies() throws {
        let addresses = try ["8.8.8.8", "127.0.0.1", "::1", "::ffff:127.0.0.1", "10.0.0.1", "169.254.169.254", "0.0.0.0"]
            .map { try #require(IPAddress($0)) }
        #expect(addresses.map(AddressPolicy.publicOnly.allows) == [true, false, false, false, false, false, false])
        #expect(addresses.map(AddressPolicy.allowingLoopback.allows) == [true, true, true, true, false, false, false])
        #expect(addresses.map(AddressPolicy(allowing: [.private]).allows) == [true, false, false, false, true, false, false])
        // The development policy (`spotter worker --allow-private-sources`) never reaches the cloud metadata address.
        #expect(addresses.map(AddressPolicy.allowingPrivateNetworks.allows) == [true, true, true, true, true, false, false])
    }
}
