// Reading GGUF files (issue 36): files the test writer builds, with metadata of all 13 value
// types and tensors of every type LogitLab reads, read back exactly (versions 2 and 3, other
// alignments); the typed look-ups; every prefix of a small file refused cleanly; and each kind
// of broken file refused with one line that names the file, the field and its byte offset.
#include "engine/gguf/gguf_file.h"
#include "support/gguf_writer.h"

#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cstring>
#include <fstream>

using namespace logitlab;
using engine::gguf::GgmlType;
using engine::gguf::GgufArray;
using engine::gguf::GgufFile;
using engine::gguf::GgufType;
using engine::gguf::GgufValue;

Q_DECLARE_METATYPE(GgmlType)
Q_DECLARE_METATYPE(std::vector<std::uint64_t>)
Q_DECLARE_METATYPE(std::vector<std::byte>)

namespace {

const std::string kWhat = "x.gguf";

engine::Result<GgufFile> parse(const std::vector<std::byte>& bytes) { return GgufFile::parse(bytes, kWhat); }

void patch(std::vector<std::byte>& bytes, std::size_t at, std::uint64_t value, int size)
{
    for (int i = 0; i < size; ++i)
        bytes[at + static_cast<std::size_t>(i)] = static_cast<std::byte>((value >> (8 * i)) & 0xffu);
}

// A small file: two keys and two tensors (F32 and Q8_0).
test::GgufWriter smallWriter()
{
    test::GgufWriter w;
    w.addString("general.architecture", "llama");
    w.addUint32("llama.block_count", 1);
    const auto a = test::randomWeights(4, 1);
    const auto b = test::randomWeights(64, 2);
    w.addTensor("a", GgmlType::F32, {4}, a);
    w.addTensor("b", GgmlType::Q8_0, {32, 2}, b);
    return w;
}

std::vector<std::byte> emptyFile(std::uint32_t version = 3)
{
    test::GgufWriter w;
    w.setVersion(version);
    return w.bytes();
}

std::vector<std::byte> oneTensor(std::uint32_t type, std::vector<std::uint64_t> ne, std::size_t dataBytes,
                                 std::optional<std::uint64_t> offset = std::nullopt)
{
    test::GgufWriter w;
    w.addRawTensor("t", type, std::move(ne), std::vector<std::byte>(dataBytes), offset);
    return w.bytes();
}

std::vector<std::byte> oneKey(const std::string& key, GgufValue value)
{
    test::GgufWriter w;
    w.add(key, std::move(value));
    return w.bytes();
}

}  // namespace

class TestGgufFile : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<GgmlType>("type");
        QTest::addColumn<std::vector<std::uint64_t>>("ne");
        QTest::addColumn<int>("version");
        for (GgmlType t : {GgmlType::F32, GgmlType::F16, GgmlType::BF16, GgmlType::Q8_0, GgmlType::Q4_0, GgmlType::Q5_0,
                           GgmlType::Q4_K, GgmlType::Q6_K}) {
            const std::uint64_t row = engine::gguf::blockWeights(t) == 1 ? 7 : engine::gguf::blockWeights(t) * 2;
            for (const auto& ne : {std::vector<std::uint64_t>{row}, std::vector<std::uint64_t>{row, 3},
                                   std::vector<std::uint64_t>{row, 2, 3}, std::vector<std::uint64_t>{row, 1, 2, 2}})
                for (const int version : {2, 3})
                    QTest::addRow("%s %zu-D v%d", engine::gguf::ggmlTypeName(t).data(), ne.size(), version)
                        << t << ne << version;
        }
    }
    void roundTrip()
    {
        QFETCH(GgmlType, type);
        QFETCH(std::vector<std::uint64_t>, ne);
        QFETCH(int, version);
        std::uint64_t count = 1;
        for (const auto d : ne)
            count *= d;
        test::GgufWriter w;
        w.setVersion(static_cast<std::uint32_t>(version));
        w.addString("general.architecture", "test");
        const auto before = test::randomWeights(count, 11, 0.25f);
        const auto pad = test::randomWeights(32, 12);
        w.addTensor("pad", GgmlType::F32, {3}, std::span(pad).first(3));  // puts the next tensor at an offset > 0
        const auto expected = w.addTensor("w", type, ne, before);
        const auto bytes = w.bytes();
        const auto file = parse(bytes);
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().c_str());
        QCOMPARE(file->version(), static_cast<std::uint32_t>(version));
        QCOMPARE(file->tensors().size(), std::size_t{2});
        const auto* t = file->tensor("w");
        QVERIFY(t);
        QCOMPARE(t->type, type);
        QCOMPARE(t->ne, ne);
        QCOMPARE(t->elements(), count);
        QCOMPARE(t->rows(), count / ne[0]);
        QCOMPARE(t->offset % file->alignment(), std::uint64_t{0});
        QVERIFY(t->offset > 0);
        QCOMPARE(static_cast<std::uint64_t>(t->data.size()), t->rows() * t->rowBytes());
        QCOMPARE(reinterpret_cast<std::uintptr_t>(t->data.data()) - reinterpret_cast<std::uintptr_t>(bytes.data()),
                 file->dataOffset() + t->offset);
        std::vector<float> out(ne[0]);
        for (std::uint64_t r = 0; r < t->rows(); ++r) {
            engine::gguf::dequantizeRow(t->type, t->row(r).data(), out.data(), out.size());
            for (std::uint64_t c = 0; c < ne[0]; ++c)
                QCOMPARE(std::bit_cast<std::uint32_t>(out[c]), std::bit_cast<std::uint32_t>(expected[r * ne[0] + c]));
        }
        QCOMPARE(file->tensor("pad")->offset, std::uint64_t{0});
        QVERIFY(!file->tensor("missing"));
    }

    void everyValueType()
    {
        test::GgufWriter w;
        w.add("u8", GgufValue{std::uint8_t{250}});
        w.add("i8", GgufValue{std::int8_t{-100}});
        w.add("u16", GgufValue{std::uint16_t{60000}});
        w.add("i16", GgufValue{std::int16_t{-30000}});
        w.add("u32", GgufValue{std::uint32_t{4000000000u}});
        w.add("i32", GgufValue{std::int32_t{-2000000000}});
        w.add("f32", GgufValue{0.1f});
        w.add("bool", GgufValue{true});
        w.add("string", GgufValue{std::string("h\xc3\xa9llo\0x", 8)});
        w.addStringArray("strings", {"a", "", "\xe2\x96\x81the"});
        w.add("u64", GgufValue{std::uint64_t{18000000000000000000u}});
        w.add("i64", GgufValue{std::int64_t{-9000000000000000000}});
        w.add("f64", GgufValue{0.1});
        w.addFloatArray("floats", {1.5f, -2.0f});
        w.addInt32Array("ints", {1, -2, 3});
        w.add("empty", GgufValue{GgufArray{GgufType::Float32, {}}});
        w.add("u8s", GgufValue{GgufArray{GgufType::Uint8, {GgufValue{std::uint8_t{1}}, GgufValue{std::uint8_t{2}}}}});
        w.add("bools", GgufValue{GgufArray{GgufType::Bool, {GgufValue{false}, GgufValue{true}}}});
        const auto bytes = w.bytes();
        const auto file = parse(bytes);
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().c_str());
        QCOMPARE(file->metadata().size(), std::size_t{18});
        QCOMPARE(std::get<std::uint8_t>(*file->find("u8")), std::uint8_t{250});
        QCOMPARE(std::get<std::int8_t>(*file->find("i8")), std::int8_t{-100});
        QCOMPARE(std::get<std::uint16_t>(*file->find("u16")), std::uint16_t{60000});
        QCOMPARE(std::get<std::int16_t>(*file->find("i16")), std::int16_t{-30000});
        QCOMPARE(std::get<std::uint32_t>(*file->find("u32")), 4000000000u);
        QCOMPARE(std::get<std::int32_t>(*file->find("i32")), -2000000000);
        QCOMPARE(std::get<float>(*file->find("f32")), 0.1f);
        QCOMPARE(std::get<bool>(*file->find("bool")), true);
        QCOMPARE(*file->string("string"), std::string("h\xc3\xa9llo\0x", 8));
        QCOMPARE(std::get<std::uint64_t>(*file->find("u64")), std::uint64_t{18000000000000000000u});
        QCOMPARE(std::get<std::int64_t>(*file->find("i64")), std::int64_t{-9000000000000000000});
        QCOMPARE(std::get<double>(*file->find("f64")), 0.1);
        const std::pair<const char*, GgufType> types[] = {
            {"u8", GgufType::Uint8},      {"i8", GgufType::Int8},    {"u16", GgufType::Uint16},
            {"i16", GgufType::Int16},     {"u32", GgufType::Uint32}, {"i32", GgufType::Int32},
            {"f32", GgufType::Float32},   {"bool", GgufType::Bool},  {"string", GgufType::String},
            {"strings", GgufType::Array}, {"u64", GgufType::Uint64}, {"i64", GgufType::Int64},
            {"f64", GgufType::Float64}};
        for (const auto& [key, type] : types)
            QCOMPARE(engine::gguf::typeOf(*file->find(key)), type);

        // Typed look-ups.
        QCOMPARE(*file->stringArray("strings"), (std::vector<std::string>{"a", "", "\xe2\x96\x81the"}));
        QCOMPARE(*file->floatArray("floats"), (std::vector<float>{1.5f, -2.0f}));
        QCOMPARE(*file->floatArray("ints"), (std::vector<float>{1.0f, -2.0f, 3.0f}));
        QCOMPARE(*file->intArray("ints"), (std::vector<std::int32_t>{1, -2, 3}));
        QCOMPARE(*file->intArray("u8s"), (std::vector<std::int32_t>{1, 2}));
        QVERIFY(file->floatArray("empty")->empty());
        QCOMPARE(*file->unsignedInteger("u8"), std::uint64_t{250});
        QCOMPARE(*file->unsignedInteger("u64"), std::uint64_t{18000000000000000000u});
    }

    void lookUpErrors_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << "string missing"
                                 << "x.gguf: metadata key 'missing' is missing";
        QTest::newRow("string of u32") << "string u32"
                                       << "x.gguf: metadata key 'u32' holds a uint32; expected a string";
        QTest::newRow("negative") << "unsigned i8"
                                  << "x.gguf: metadata key 'i8' is -3; expected a number >= 0";
        QTest::newRow("unsigned of float") << "unsigned f32"
                                           << "x.gguf: metadata key 'f32' holds a float32; expected a whole number";
        QTest::newRow("number of string") << "number s"
                                          << "x.gguf: metadata key 's' holds a string; expected a number";
        QTest::newRow("strings of floats")
            << "strings floats"
            << "x.gguf: metadata key 'floats' holds an array of float32; expected an array of string";
        QTest::newRow("ints of floats")
            << "ints floats"
            << "x.gguf: metadata key 'floats' holds an array of float32; expected an array of integers";
        QTest::newRow("floats of strings") << "floats s"
                                           << "x.gguf: metadata key 's' holds a string; expected an array of numbers";
        QTest::newRow("ints out of range") << "ints big"
                                           << "x.gguf: metadata key 'big'[1] is outside the int32 range";
    }
    void lookUpErrors()
    {
        QFETCH(QString, call);
        QFETCH(QString, message);
        test::GgufWriter w;
        w.addUint32("u32", 1);
        w.add("i8", GgufValue{std::int8_t{-3}});
        w.addFloat32("f32", 1.0f);
        w.addString("s", "text");
        w.addFloatArray("floats", {1.0f});
        w.add("big",
              GgufValue{GgufArray{GgufType::Int64, {GgufValue{std::int64_t{1}}, GgufValue{std::int64_t{1} << 40}}}});
        const auto bytes = w.bytes();
        const auto file = parse(bytes);
        QVERIFY(file.ok());
        const auto parts = call.split(' ');
        const std::string key = parts[1].toStdString();
        std::string error;
        if (parts[0] == "string")
            error = file->string(key).error();
        else if (parts[0] == "unsigned")
            error = file->unsignedInteger(key).error();
        else if (parts[0] == "number")
            error = file->number(key).error();
        else if (parts[0] == "strings")
            error = file->stringArray(key).error();
        else if (parts[0] == "ints")
            error = file->intArray(key).error();
        else
            error = file->floatArray(key).error();
        QCOMPARE(QString::fromStdString(error), message);
    }

    void numbersOfEveryKind()
    {
        test::GgufWriter w;
        w.add("i16", GgufValue{std::int16_t{-7}});
        w.add("f64", GgufValue{2.5});
        w.addUint32("u32", 9);
        const auto bytes = w.bytes();
        const auto file = parse(bytes);
        QVERIFY(file.ok());
        QCOMPARE(*file->number("i16"), -7.0);
        QCOMPARE(*file->number("f64"), 2.5);
        QCOMPARE(*file->number("u32"), 9.0);
        QCOMPARE(*file->unsignedInteger("u32"), std::uint64_t{9});
    }

    void alignment()
    {
        for (const std::uint32_t a : {1u, 8u, 64u, 4096u}) {
            test::GgufWriter w;
            w.setAlignment(a);
            const auto v = test::randomWeights(5, 3);
            w.addTensor("a", GgmlType::F32, {5}, v);
            w.addTensor("b", GgmlType::F32, {5}, v);
            const auto bytes = w.bytes();
            const auto file = parse(bytes);
            QVERIFY2(file.ok(), file.ok() ? "" : file.error().c_str());
            QCOMPARE(file->alignment(), a);
            QCOMPARE(file->dataOffset() % a, std::uint64_t{0});
            QCOMPARE(file->tensor("b")->offset, (20 + a - 1) / a * a);
            float out[5];
            engine::gguf::dequantizeRow(GgmlType::F32, file->tensor("b")->data.data(), out, 5);
            QCOMPARE(out[4], v[4]);
        }
    }

    void emptyFilesAreRead()
    {
        for (const std::uint32_t version : {2u, 3u}) {
            const auto bytes = emptyFile(version);
            QCOMPARE(bytes.size(), std::size_t{24});
            const auto file = parse(bytes);
            QVERIFY(file.ok());
            QVERIFY(file->tensors().empty() && file->metadata().empty());
        }
    }

    void writesFiles()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("m.gguf")).toStdString();
        const auto w = smallWriter();
        QVERIFY(w.writeFile(path));
        std::ifstream in(path, std::ios::binary);
        std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto bytes = w.bytes();
        QCOMPARE(chars.size(), bytes.size());
        QVERIFY(std::memcmp(chars.data(), bytes.data(), bytes.size()) == 0);
        QVERIFY(!w.writeFile(dir.filePath(QStringLiteral("no/such/dir/m.gguf")).toStdString()));
    }

    // Every prefix of a valid file that cuts into its last tensor is refused with one line naming
    // a field and a byte; the padding after the last tensor may be cut.
    void everyTruncationRefused()
    {
        const auto bytes = smallWriter().bytes();
        const auto whole = parse(bytes);
        QVERIFY(whole.ok());
        std::size_t end = 0;
        for (const auto& t : whole->tensors())
            end = std::max(end, static_cast<std::size_t>(t.data.data() + t.data.size() - bytes.data()));
        QVERIFY(end < bytes.size());  // the writer pads the last tensor, as ggml does
        for (std::size_t n = 0; n <= bytes.size(); ++n) {
            const std::vector<std::byte> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
            const auto file = parse(prefix);
            if (n >= end) {
                QVERIFY2(file.ok(), qPrintable(QStringLiteral("prefix of %1 bytes refused").arg(n)));
                continue;
            }
            QVERIFY2(!file.ok(), qPrintable(QStringLiteral("prefix of %1 bytes read").arg(n)));
            const QString message = QString::fromStdString(file.error());
            QVERIFY2(message.startsWith(QStringLiteral("x.gguf: ")) && message.contains(QStringLiteral(" at byte ")) &&
                         !message.contains('\n'),
                     qPrintable(message));
        }
    }

    void refused_data()
    {
        QTest::addColumn<std::vector<std::byte>>("bytes");
        QTest::addColumn<QString>("message");

        auto bytes = emptyFile();
        bytes[0] = std::byte{'P'};
        QTest::newRow("magic") << bytes
                               << "x.gguf: magic at byte 0: expected \"GGUF\", found \"PGUF\" (not a GGUF file)";
        bytes = emptyFile();
        patch(bytes, 0, 0x00ff0a7fu, 4);
        QTest::newRow("magic, binary")
            << bytes << "x.gguf: magic at byte 0: expected \"GGUF\", found \"\\x7f\\x0a\\xff\\x00\" (not a GGUF file)";
        QTest::newRow("version 1")
            << emptyFile(1)
            << "x.gguf: version at byte 4: version 1 is not read (GGUF versions 2 and 3 are; version 1 "
               "files predate 64-bit counts: convert the model again)";
        QTest::newRow("version 4") << emptyFile(4)
                                   << "x.gguf: version at byte 4: version 4 is not read (GGUF versions 2 and 3 are)";
        QTest::newRow("short") << std::vector<std::byte>(3)
                               << "x.gguf: magic at byte 0: needs 4 bytes, but only 3 are left (truncated)";

        bytes = emptyFile();
        patch(bytes, 8, std::uint64_t{1} << 40, 8);
        QTest::newRow("absurd tensor count")
            << bytes << "x.gguf: tensor count at byte 8: 1,099,511,627,776 tensors is over the limit of 1,000,000";
        bytes = emptyFile();
        patch(bytes, 8, 1000, 8);
        QTest::newRow("tensor count past the end")
            << bytes
            << "x.gguf: tensor count at byte 8: 1,000 tensors need at least 32 bytes each "
               "besides the keys, but only 0 bytes follow the header";
        bytes = emptyFile();
        patch(bytes, 16, ~std::uint64_t{0}, 8);
        QTest::newRow("absurd key count")
            << bytes
            << "x.gguf: metadata key count at byte 16: 18,446,744,073,709,551,615 keys is over the "
               "limit of 100,000";
        bytes = oneKey("k", GgufValue{std::uint8_t{1}});
        patch(bytes, 16, 2, 8);
        QTest::newRow("key count past the end")
            << bytes
            << "x.gguf: metadata key count at byte 16: 2 keys need at least 13 bytes each, but only "
               "14 bytes follow the header";

        QTest::newRow("alignment 3")
            << oneKey("general.alignment", GgufValue{std::uint32_t{3}})
            << "x.gguf: key 'general.alignment' at byte 53: an alignment of 3 is not a power of two";
        QTest::newRow("alignment 0")
            << oneKey("general.alignment", GgufValue{std::uint32_t{0}})
            << "x.gguf: key 'general.alignment' at byte 53: an alignment of 0 is not a power of two";
        QTest::newRow("alignment of string")
            << oneKey("general.alignment", GgufValue{std::string("32")})
            << "x.gguf: key 'general.alignment' at byte 49: holds a string; the alignment is a uint32";

        QTest::newRow("data past the end")
            << oneTensor(0, {4}, 16, 32)
            << "x.gguf: tensor 't' data offset at byte 49: 16 bytes of F32 at data offset 32 (file "
               "byte 64 + offset) run past the end of the file (96 bytes; truncated)";
        QTest::newRow("data offset huge")
            << oneTensor(0, {4}, 16, ~std::uint64_t{0} << 5)
            << "x.gguf: tensor 't' data offset at byte 49: 16 bytes of F32 at data offset "
               "18,446,744,073,709,551,584 (file byte 64 + offset) run past the end of the file (96 "
               "bytes; truncated)";
        QTest::newRow("unaligned")
            << oneTensor(0, {4}, 16, 4)
            << "x.gguf: tensor 't' data offset at byte 49: offset 4 is not a multiple of the alignment 32";
        QTest::newRow("unknown type")
            << oneTensor(99, {4}, 16)
            << "x.gguf: tensor 't' type at byte 45: ggml type 99 is not read (F32, F16, BF16, Q8_0, "
               "Q4_0, Q5_0, Q4_K and Q6_K are)";
        QTest::newRow("control bytes in a name") <<
            [] {
                test::GgufWriter w;
                w.addRawTensor("a\nb", 99, {4}, std::vector<std::byte>(16));
                return w.bytes();
            }()
                                                 << "x.gguf: tensor 'a\\x0ab' type at byte 47: ggml type 99 is not "
                                                    "read (F32, F16, BF16, Q8_0, Q4_0, Q5_0, Q4_K "
                                                    "and Q6_K are)";
        QTest::newRow("Q4_1 type")
            << oneTensor(3, {32}, 20)
            << "x.gguf: tensor 't' type at byte 45: ggml type 3 is not read (F32, F16, BF16, Q8_0, Q4_0, "
               "Q5_0, Q4_K and Q6_K are)";
        QTest::newRow("0 dims") << oneTensor(0, {}, 0)
                                << "x.gguf: tensor 't' dimension count at byte 33: 0 dimensions; ggml "
                                   "tensors have 1 to 4";
        QTest::newRow("5 dims")
            << oneTensor(0, {1, 1, 1, 1, 1}, 4)
            << "x.gguf: tensor 't' dimension count at byte 33: 5 dimensions; ggml tensors have 1 to 4";
        QTest::newRow("ne 0")
            << oneTensor(0, {4, 0}, 0)
            << "x.gguf: tensor 't' ne[1] at byte 45: a dimension of 0 (every dimension is at least 1)";
        QTest::newRow("elements overflow")
            << oneTensor(0, {std::uint64_t{1} << 32, std::uint64_t{1} << 31}, 0)
            << "x.gguf: tensor 't' ne[1] at byte 45: a dimension of 2,147,483,648 takes the element "
               "count past 2^63";
        QTest::newRow("bytes past 2^64") << oneTensor(0, {std::uint64_t{1} << 62}, 0)
                                         << "x.gguf: tensor 't' at byte 24: its size in bytes overflows 64 bits";
        QTest::newRow("partial block")
            << oneTensor(8, {48}, 68)
            << "x.gguf: tensor 't' ne[0] at byte 37: a row of 48 weights is not a whole number of Q8_0 "
               "blocks of 32";

        {
            test::GgufWriter w;
            w.addUint32("k", 1).addUint32("k", 2);
            QTest::newRow("duplicate key") << w.bytes() << "x.gguf: key 'k' at byte 41: the key appears twice";
        }
        {
            test::GgufWriter w;
            w.addRawTensor("t", 0, {1}, std::vector<std::byte>(4)).addRawTensor("t", 0, {1}, std::vector<std::byte>(4));
            QTest::newRow("duplicate tensor")
                << w.bytes() << "x.gguf: tensor 't' at byte 57: the tensor name appears twice";
        }
        QTest::newRow("tensor name too long") << [] {
            test::GgufWriter w;
            w.addRawTensor(std::string(65, 'n'), 0, {1}, std::vector<std::byte>(4));
            return w.bytes();
        }() << "x.gguf: tensor 0 name length at byte 24: 65 bytes is over the limit of 64";

        bytes = oneKey("k", GgufValue{GgufArray{GgufType::Uint8, {}}});
        patch(bytes, 37, 9, 4);  // the element type: array
        QTest::newRow("nested array")
            << bytes << "x.gguf: key 'k' element type at byte 37: an array of arrays (nested arrays are not read)";
        bytes = oneKey("k", GgufValue{std::uint8_t{1}});
        patch(bytes, 33, 13, 4);
        QTest::newRow("unknown value type") << bytes << "x.gguf: key 'k' value type at byte 33: unknown value type 13";
        bytes = oneKey("k", GgufValue{GgufArray{GgufType::Uint8, {}}});
        patch(bytes, 37, 77, 4);
        QTest::newRow("unknown element type")
            << bytes << "x.gguf: key 'k' element type at byte 37: unknown value type 77";
        bytes = oneKey("k", GgufValue{true});
        patch(bytes, 37, 2, 1);
        QTest::newRow("bool 2") << bytes << "x.gguf: key 'k' at byte 37: a bool is 0 or 1, not 2";
        bytes = oneKey("k", GgufValue{std::string("abc")});
        patch(bytes, 37, std::uint64_t{1} << 21, 8);
        QTest::newRow("string over 1 MiB")
            << bytes << "x.gguf: key 'k' length at byte 37: 2,097,152 bytes is over the limit of 1,048,576";
        bytes = oneKey("k", GgufValue{std::string("abc")});
        patch(bytes, 37, 4, 8);
        QTest::newRow("string past the end")
            << bytes
            << "x.gguf: key 'k' at byte 37: a length of 4 bytes runs past the end of the file (3 "
               "bytes left; truncated)";
        bytes = oneKey("k", GgufValue{GgufArray{GgufType::Uint32, {GgufValue{std::uint32_t{1}}}}});
        patch(bytes, 41, 2, 8);
        QTest::newRow("array past the end")
            << bytes
            << "x.gguf: key 'k' element count at byte 41: 2 elements of uint32 need at least 4 bytes "
               "each, but only 4 bytes are left";
        bytes = oneKey("k", GgufValue{GgufArray{GgufType::String, {GgufValue{std::string("a")}}}});
        patch(bytes, 49, 2, 8);
        QTest::newRow("array string past the end")
            << bytes
            << "x.gguf: key 'k'[0] at byte 49: a length of 2 bytes runs past the end of the "
               "file (1 byte left; truncated)";
        bytes = oneKey(std::string(70000, 'k'), GgufValue{std::uint8_t{1}});
        QTest::newRow("key too long") << bytes
                                      << "x.gguf: key 0 length at byte 24: 70,000 bytes is over the limit of 65,535";
    }
    void refused()
    {
        QFETCH(std::vector<std::byte>, bytes);
        QFETCH(QString, message);
        const auto file = parse(bytes);
        QVERIFY(!file.ok());
        QCOMPARE(QString::fromStdString(file.error()), message);
    }
};

QTEST_GUILESS_MAIN(TestGgufFile)
#include "tst_gguf_file.moc"
