internal import CCurl
internal import CCurlShims

/// libcurl's global state: initialised once for the process, on first use, and
/// never cleaned up, since transfers may run until the process ends.
private let globalInitResult: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

/// One libcurl easy handle with its error buffer and header list, owned by
/// one transfer and used on one thread; freed in deinit.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?

    init() throws(TransferError) {
        guard globalInitResult == CURLE_OK else {
            throw TransferError(
                .failed, "libcurl did not initialise", curlCode: Int(globalInitResult.rawValue),
                curlMessage: String(cString: curl_easy_strerror(globalInitResult)))
        }
        guard let handle = curl_easy_init() else { throw TransferError(.failed, "libcurl could not create a handle") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Back to a new handle's options, keeping its open connections for the
    /// next transfer to the same server (libcurl's `curl_easy_reset`).
    func reset() throws(TransferError) {
        curl_easy_reset(handle)
        curl_slist_free_all(headerList)
        headerList = nil
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer))
    }

    /// Sets a long option: a number, a flag or a timeout.
    func set(_ option: CURLoption, _ value: Int) throws(TransferError) {
        try check(spotter_curl_easy_setopt_long(handle, option, value), option)
    }

    /// Sets a curl_off_t option: a size.
    func set(_ option: CURLoption, size value: Int64) throws(TransferError) {
        try check(spotter_curl_easy_setopt_off_t(handle, option, curl_off_t(value)), option)
    }

    /// Sets a string option; libcurl keeps a copy.
    func set(_ option: CURLoption, _ value: String) throws(TransferError) {
        let result = value.withCString { spotter_curl_easy_setopt_pointer(handle, option, $0) }
        try check(result, option)
    }

    /// Sets an option that libcurl keeps as a pointer, such as callback data,
    /// which must outlive the transfer.
    func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws(TransferError) {
        try check(spotter_curl_easy_setopt_pointer(handle, option, pointer), option)
    }

    func set(_ option: CURLoption, _ callback: curl_write_callback) throws(TransferError) {
        try check(spotter_curl_easy_setopt_write_callback(handle, option, callback), option)
    }

    func set(progress callback: curl_xferinfo_callback) throws(TransferError) {
        try check(spotter_curl_easy_setopt_xferinfo_callback(handle, callback), CURLOPT_XFERINFOFUNCTION)
    }

    func set(openSocket callback: curl_opensocket_callback) throws(TransferError) {
        try check(spotter_curl_easy_setopt_opensocket_callback(handle, callback), CURLOPT_OPENSOCKETFUNCTION)
    }

    func set(connected callback: curl_prereq_callback) throws(TransferError) {
        try check(spotter_curl_easy_setopt_prereq_callback(handle, callback), CURLOPT_PREREQFUNCTION)
    }

    /// Sets the request headers, "Name: value" lines; the handle keeps the list.
    func set(headerLines: [String]) throws(TransferError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in headerLines {
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw TransferError(.failed, "libcurl could not allocate the request headers")
            }
            list = appended
        }
        curl_slist_free_all(headerList)
        headerList = list
        try set(CURLOPT_HTTPHEADER, pointer: UnsafeRawPointer(list))
    }

    /// Runs the transfer to its end, blocking the calling thread.
    func perform() -> CURLcode {
        errorBuffer[0] = 0
        return curl_easy_perform(handle)
    }

    /// libcurl's words for `code`: the error buffer's detail if it has one.
    func describe(_ code: CURLcode) -> String {
        let detail = String(cString: errorBuffer).trimmingTrailingNewlines()
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    func info(_ info: CURLINFO) -> Int? {
        var value = 0
        return spotter_curl_easy_getinfo_long(handle, info, &value) == CURLE_OK ? value : nil
    }

    func info(_ info: CURLINFO) -> Int64? {
        var value: curl_off_t = 0
        return spotter_curl_easy_getinfo_off_t(handle, info, &value) == CURLE_OK ? Int64(value) : nil
    }

    func info(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard spotter_curl_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// The headers of the last response, in the order received.
    var responseHeaders: [(name: String, value: String)] {
        var headers = [(name: String, value: String)]()
        var previous: UnsafeMutablePointer<curl_header>?
        while let header = curl_easy_nextheader(handle, UInt32(CURLH_HEADER), -1, previous) {
            headers.append((String(cString: header.pointee.name), String(cString: header.pointee.value)))
            previous = header
        }
        return headers
    }

    /// The value of the last response's header `name`, even after a failure,
    /// such as the Content-Length of a body that was refused for its size.
    func responseHeader(_ name: String) -> String? {
        var header: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(handle, name, 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK, let header else {
            return nil
        }
        return String(cString: header.pointee.value)
    }

    private func check(_ result: CURLcode, _ option: CURLoption) throws(TransferError) {
        guard result != CURLE_OK else { return }
        throw TransferError(
            .failed, "libcurl refused option \(option.rawValue)", curlCode: Int(result.rawValue), curlMessage: describe(result))
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while text.last?.isNewline == true { text.removeLast() }
        return String(text)
    }
}
