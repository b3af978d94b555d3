// Importing a model's logits (issue 14): .npy in every header version, dtype, byte order and
// memory order; .npz stored and deflated (written here with libzip); safetensors F16, BF16,
// F32, F64; each row read back exactly. Every malformed file is refused with a message naming
// the file and the offset or field. Vocabularies: tokenizer.json (byte-level, added tokens,
// a padded V) and text, and a tokenizer of another model refused with both numbers.
#include "app/io/experiment_file.h"
#include "app/io/json_object_reader.h"
#include "app/io/logits_file.h"
#include "app/io/vocabulary_file.h"
#include "engine/io/npy_header.h"
#include "engine/models/token_spelling.h"
#include "support/array_fixtures.h"
#include "support/npz_writer.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace logitlab;
using test::fixtureValue;

Q_DECLARE_METATYPE(std::vector<std::uint64_t>)

namespace {

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    return test::writeFixture(dir, name, bytes);
}

std::uint64_t steps(const std::vector<std::uint64_t>& shape) { return shape.size() >= 2 ? shape[shape.size() - 2] : 1; }
std::uint64_t batches(const std::vector<std::uint64_t>& shape) { return shape.size() == 3 ? shape[0] : 1; }

// Every row of the file equals fixtureValue, bit for bit.
void checkEveryRow(const QString& path, const QString& array, const std::vector<std::uint64_t>& shape)
{
    for (std::uint64_t b = 0; b < batches(shape); ++b)
        for (std::uint64_t s = 0; s < steps(shape); ++s) {
            app::LogitsFileRequest request;
            request.array = array;
            if (shape.size() >= 2)
                request.row.step = static_cast<std::int64_t>(s);
            if (shape.size() == 3)
                request.row.batch = static_cast<std::int64_t>(b);
            const auto read = app::readLogitsFile(path, request);
            QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
            QCOMPARE(read->shape, shape);
            QCOMPARE(read->distribution.logits.size(), static_cast<Eigen::Index>(shape.back()));
            for (std::uint64_t t = 0; t < shape.back(); ++t)
                QCOMPARE(read->distribution.logits[static_cast<Eigen::Index>(t)], fixtureValue(b, s, t));
        }
}

const std::vector<std::uint64_t> k1d{7};
const std::vector<std::uint64_t> k2d{3, 7};
const std::vector<std::uint64_t> k3d{2, 3, 7};

}  // namespace

class TestLogitsImport : public QObject {
    Q_OBJECT
private slots:
    void npyRoundTrip_data()
    {
        QTest::addColumn<QByteArray>("descr");
        QTest::addColumn<bool>("fortran");
        QTest::addColumn<std::vector<std::uint64_t>>("shape");
        QTest::addColumn<int>("version");
        for (const char* descr : {"<f2", ">f2", "<f4", ">f4", "<f8", ">f8"})
            for (const bool fortran : {false, true})
                for (const auto& shape : {k1d, k2d, k3d}) {
                    const int version = shape.size() == 1 ? 1 : shape.size() == 2 ? 2 : 3;
                    QTest::addRow("%s %s %zu-D v%d", descr, fortran ? "F" : "C", shape.size(), version)
                        << QByteArray(descr) << fortran << shape << version;
                }
    }
    void npyRoundTrip()
    {
        QFETCH(QByteArray, descr);
        QFETCH(bool, fortran);
        QFETCH(std::vector<std::uint64_t>, shape);
        QFETCH(int, version);
        const char type = descr[2] == '2' ? 'h' : descr[2] == '4' ? 'f' : 'd';
        QTemporaryDir dir;
        const QString path =
            write(dir, QStringLiteral("x.npy"),
                  test::npyFile(descr, fortran, test::pythonShape(shape),
                                test::arrayData(shape, fortran, type, descr[0] == '>', fixtureValue), version));
        checkEveryRow(path, {}, shape);
    }

    void negativeRowCountsFromTheEnd()
    {
        QTemporaryDir dir;
        const QString path = write(
            dir, QStringLiteral("x.npy"),
            test::npyFile("<f4", false, test::pythonShape(k3d), test::arrayData(k3d, false, 'f', false, fixtureValue)));
        app::LogitsFileRequest request;
        request.row = {-1, -3};
        const auto read = app::readLogitsFile(path, request);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        QCOMPARE(read->batch, std::uint64_t{1});
        QCOMPARE(read->step, std::uint64_t{0});
        QCOMPARE(read->distribution.logits[2], fixtureValue(1, 0, 2));
    }

    void npz_data()
    {
        QTest::addColumn<bool>("deflate");
        QTest::newRow("stored") << false;
        QTest::newRow("deflated") << true;
    }
    void npz()
    {
        QFETCH(bool, deflate);
        QTemporaryDir dir;
        const QByteArray logits =
            test::npyFile("<f4", false, test::pythonShape(k2d), test::arrayData(k2d, false, 'f', false, fixtureValue));
        const QByteArray other =
            test::npyFile("<f8", true, test::pythonShape(k3d), test::arrayData(k3d, true, 'd', false, fixtureValue));
        const QString path =
            test::writeNpz(dir, QStringLiteral("out.npz"), {{"logits.npy", logits}, {"scores.npy", other}}, deflate);
        checkEveryRow(path, QStringLiteral("logits"), k2d);
        checkEveryRow(path, QStringLiteral("scores.npy"), k3d);
        // No array named: `logits` is read (generate's dump beside `sequences`) ...
        app::LogitsFileRequest last;
        last.row.step = -1;
        const auto unnamed = app::readLogitsFile(path, last);
        QVERIFY2(unnamed.ok(), unnamed.ok() ? "" : unnamed.error().c_str());
        QCOMPARE(unnamed->distribution.logits[1], fixtureValue(0, k2d[0] - 1, 1));
        // ... and where there is none, the message says how to name one, in the CLI and the window.
        const QString noLogits =
            test::writeNpz(dir, QStringLiteral("two.npz"), {{"a.npy", logits}, {"scores.npy", other}}, deflate);
        const auto refused = app::readLogitsFile(noLogits, {});
        QVERIFY(!refused.ok());
        QCOMPARE(QString::fromStdString(refused.error()),
                 noLogits + ": holds 2 arrays (a.npy, scores.npy) and none is called logits; name the one to read "
                            "(--array in logitlab-cli; Array on the Loop page)");
        const QString single = test::writeNpz(dir, QStringLiteral("one.npz"), {{"arr_0.npy", logits}}, deflate);
        app::LogitsFileRequest request;
        request.row.step = 2;
        QVERIFY(app::readLogitsFile(single, request).ok());
    }

    void safetensors_data()
    {
        QTest::addColumn<QByteArray>("dtype");
        QTest::addColumn<std::vector<std::uint64_t>>("shape");
        for (const char* dtype : {"F16", "BF16", "F32", "F64"})
            for (const auto& shape : {k1d, k2d, k3d})
                QTest::addRow("%s %zu-D", dtype, shape.size()) << QByteArray(dtype) << shape;
    }
    void safetensors()
    {
        QFETCH(QByteArray, dtype);
        QFETCH(std::vector<std::uint64_t>, shape);
        const char type = dtype == "F16" ? 'h' : dtype == "BF16" ? 'b' : dtype == "F32" ? 'f' : 'd';
        const QByteArray data = test::arrayData(shape, false, type, false, fixtureValue);
        // A second tensor before ours, so the offsets are not all from 0.
        const QByteArray ids = QByteArray(16, '\1');
        QByteArray shapeJson = "[";
        for (std::size_t i = 0; i < shape.size(); ++i)
            shapeJson += (i ? "," : "") + QByteArray::number(static_cast<qulonglong>(shape[i]));
        shapeJson += "]";
        const QByteArray header =
            "{\"__metadata__\":{\"format\":\"pt\"},\"sequences\":{\"dtype\":\"I64\",\"shape\":[2],"
            "\"data_offsets\":[0,16]},\"logits\":{\"dtype\":\"" +
            dtype + "\",\"shape\":" + shapeJson + ",\"data_offsets\":[16," + QByteArray::number(16 + data.size()) +
            "]}}";
        QTemporaryDir dir;
        const QString path = write(dir, QStringLiteral("out.safetensors"), test::safetensorsFile(header, ids + data));
        checkEveryRow(path, QStringLiteral("logits"), shape);
        // Unnamed, `logits` is read, not refused for `sequences` beside it.
        app::LogitsFileRequest request;
        if (shape.size() >= 2)
            request.row.step = 0;
        if (shape.size() == 3)
            request.row.batch = 0;
        const auto unnamed = app::readLogitsFile(path, request);
        QVERIFY2(unnamed.ok(), unnamed.ok() ? "" : unnamed.error().c_str());
        QCOMPARE(unnamed->distribution.logits[0], fixtureValue(0, 0, 0));
    }

    // The format comes from the content: a .npy saved under another name is still read, and a
    // text file called .npy is read as text.
    void formatFromContent()
    {
        QTemporaryDir dir;
        const QString npy = write(
            dir, QStringLiteral("logits.bin"),
            test::npyFile("<f4", false, test::pythonShape(k1d), test::arrayData(k1d, false, 'f', false, fixtureValue)));
        const auto read = app::readLogitsFile(npy, {});
        QVERIFY(read.ok());
        QCOMPARE(read->format, engine::LogitsFormat::Npy);
        const QString text = write(dir, QStringLiteral("text.npy"), "3\n2\n1.5\n");
        const auto plain = app::readLogitsFile(text, {});
        QVERIFY(plain.ok());
        QCOMPARE(plain->format, engine::LogitsFormat::Text);
        QCOMPARE(plain->distribution.logits.size(), Eigen::Index{3});
    }

    void malformed_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("array");
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("message");
        const QByteArray f4 = test::arrayData(k2d, false, 'f', false, fixtureValue);
        const QByteArray shape = test::pythonShape(k2d);
        const QByteArray good = test::npyFile("<f4", false, shape, f4);
        QTest::newRow("npy version") << QByteArray(good).replace(6, 1, "\x04") << QString() << 0
                                     << "%1: offset 6: .npy version 4.0; expected 1.0, 2.0 or 3.0";
        QTest::newRow("npy header past the end")
            << good.left(9) + QByteArray("\xFF", 1) << QString() << 0
            << "%1: offset 8: the header length 65,398 runs past the end of the file (10 bytes)";
        QTest::newRow("npy int dtype") << test::npyFile("<i4", false, shape, f4) << QString() << 0
                                       << "%1: header field 'descr' is '<i4' (not a float dtype); expected a float "
                                          "array: <f2 >f2 <f4 >f4 <f8 >f8 (float16, float32, float64)";
        QTest::newRow("npy f16 bytes") << test::npyFile("<f16", false, shape, f4) << QString() << 0
                                       << "%1: header field 'descr' is '<f16' (not a float dtype); expected a float "
                                          "array: <f2 >f2 <f4 >f4 <f8 >f8 (float16, float32, float64)";
        QTest::newRow("npy structured")
            << QByteArray(good).replace("'<f4'", "[('a', '<f4')]") << QString() << 0
            << "%1: header at offset 20: expected a dtype string ('descr' as a list is a structured array, not logits)";
        QTest::newRow("npy truncated") << good.chopped(6) << QString() << 0
                                       << "%1: header field 'shape' (3, 7) of '<f4' needs 84 bytes from offset 128, "
                                          "but the data ends at offset 206 (truncated, 6 bytes short)";
        QTest::newRow("npy header lies")
            << test::npyFile("<f4", false, "(2, 7)", f4) << QString() << 0
            << "%1: header field 'shape' (2, 7) of '<f4' needs 56 bytes from offset 128, but 28 more bytes follow from "
               "offset 184 (the header lies about the shape)";
        QTest::newRow("npy 4-D")
            << test::npyFile("<f4", false, "(1, 1, 3, 7)", f4) << QString() << 0
            << "%1: header field 'shape' (1, 1, 3, 7) has 4 dimensions; expected [V], [steps, V] or [batch, steps, V]";
        QTest::newRow("npy NaN") << test::npyFile("<f4", false, shape,
                                                  test::arrayData(k2d, false, 'f', false,
                                                                  [](auto b, auto s, auto t) {
                                                                      return s == 2 && t == 5 ? std::nan("")
                                                                                              : fixtureValue(b, s, t);
                                                                  }))
                                 << QString() << 2 << "%1: step 2, token id 5 is NaN";
        QTest::newRow("npy +inf") << test::npyFile(">f2", false, shape,
                                                   test::arrayData(k2d, false, 'h', true,
                                                                   [](auto b, auto s, auto t) {
                                                                       return s == 0 && t == 6 ? INFINITY
                                                                                               : fixtureValue(b, s, t);
                                                                   }))
                                  << QString() << 0
                                  << "%1: step 0, token id 6 is +inf (only -inf, probability 0, is allowed)";
        QTest::newRow("npy row out of range")
            << good << QString() << 3
            << "%1: --row 3 is outside the 3 steps of shape (3, 7) (0 to 2, or -1 to -3 from the end)";
        QTest::newRow("npy with --array")
            << good << QStringLiteral("logits") << 0 << "%1: --array 'logits' given, but a .npy file holds one array";

        const QByteArray data = QByteArray(16, '\0');
        const auto st = [&](const QByteArray& header, const QByteArray& bytes = QByteArray(16, '\0')) {
            return test::safetensorsFile(header, bytes);
        };
        QTest::newRow("safetensors dtype")
            << st("{\"logits\":{\"dtype\":\"I32\",\"shape\":[4],\"data_offsets\":[0,16]}}") << QString() << 0
            << "%1: header field 'logits'.dtype is 'I32'; expected F16, BF16, F32 or F64";
        QTest::newRow("safetensors past the end")
            << st("{\"logits\":{\"dtype\":\"F32\",\"shape\":[8],\"data_offsets\":[0,32]}}") << QString() << 0
            << "%1: header field 'logits'.data_offsets [0, 32] runs past the end of the data (16 bytes from offset 72; "
               "the file is truncated or the header lies)";
        QTest::newRow("safetensors shape lies")
            << st("{\"logits\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,16]}}") << QString() << 0
            << "%1: header field 'logits'.data_offsets [0, 16]: 16 bytes, but shape (3,) of F32 needs 12";
        QTest::newRow("safetensors overlap")
            << st("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]},\"b\":{\"dtype\":\"F32\",\"shape\":"
                  "[2],\"data_offsets\":[8,16]}}")
            << QStringLiteral("a") << 0 << "%1: header fields 'a' and 'b': data_offsets overlap (at 8)";
        QTest::newRow("safetensors no such tensor")
            << st("{\"logits\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}") << QStringLiteral("scores")
            << 0 << "%1: no tensor 'scores'; it holds logits";
        QTest::newRow("safetensors bad JSON")
            << st("{\"logits\":{\"dtype\":\"F32\",}}") << QString() << 0
            << "%1: header at offset 34: not valid JSON: object is missing after a comma";
        QTest::newRow("safetensors header too long")
            << QByteArray("\x10\x00\x00\x00\x00\x00\x00\x00{}", 10) << QString() << 0
            << "%1: offset 0: the header length 16 runs past the end of the file (10 bytes)";
        Q_UNUSED(data);
    }
    void malformed()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, array);
        QFETCH(int, row);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = write(dir, QStringLiteral("bad.bin"), bytes);
        app::LogitsFileRequest request;
        request.array = array;
        if (row != 0)
            request.row.step = row;
        else if (bytes.startsWith("\x93NUMPY") && bytes.contains("(3, 7)"))
            request.row.step = 0;
        const auto read = app::readLogitsFile(path, request);
        QVERIFY(!read.ok());
        QCOMPARE(QString::fromStdString(read.error()), message.arg(path));
    }

    void badMagic()
    {
        const QByteArray bytes("\x93NUMPZ\x01\x00", 8);
        const auto span = std::span(reinterpret_cast<const unsigned char*>(bytes.constData()), 8);
        const auto layout = engine::parseNpy(span, "x.npy");
        QVERIFY(!layout.ok());
        QCOMPARE(QString::fromStdString(layout.error()),
                 QStringLiteral("x.npy: offset 0: expected the .npy magic \\x93NUMPY"));
        // Read as a logits file, such bytes are not text either.
        QTemporaryDir dir;
        const QString path = write(dir, QStringLiteral("x.npy"), bytes);
        const auto read = app::readLogitsFile(path, {});
        QVERIFY(!read.ok());
        QCOMPARE(QString::fromStdString(read.error()),
                 path + ": holds a NUL byte at line 1: not a text file (UTF-16 text must be saved as UTF-8)");
    }

    void npzProblems()
    {
        QTemporaryDir dir;
        const QByteArray logits =
            test::npyFile("<f4", false, test::pythonShape(k1d), test::arrayData(k1d, false, 'f', false, fixtureValue));
        const QString path = test::writeNpz(dir, QStringLiteral("out.npz"), {{"logits.npy", logits}}, true);
        app::LogitsFileRequest request;
        request.array = QStringLiteral("scores");
        auto read = app::readLogitsFile(path, request);
        QVERIFY(!read.ok());
        QCOMPARE(QString::fromStdString(read.error()), path + ": no array 'scores'; it holds logits.npy");

        // A member that is not a float array is refused with the member named.
        const QString ints =
            test::writeNpz(dir, QStringLiteral("ints.npz"),
                           {{"ids.npy", test::npyFile("<i8", false, "(2,)", QByteArray(16, '\0'))}}, false);
        read = app::readLogitsFile(ints, {});
        QVERIFY(!read.ok());
        QVERIFY2(
            QString::fromStdString(read.error()).startsWith(ints + ", member ids.npy: header field 'descr' is '<i8'"),
            read.error().c_str());

        // A truncated archive: libzip's own words, after the file's name.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray whole = file.readAll();
        const QString cut = write(dir, QStringLiteral("cut.npz"), whole.left(whole.size() / 2));
        read = app::readLogitsFile(cut, {});
        QVERIFY(!read.ok());
        QVERIFY2(QString::fromStdString(read.error()).startsWith(cut + ": not a readable .npz (zip) archive: "),
                 read.error().c_str());
    }

    void readableTokens_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<int>("spelling");
        QTest::addColumn<QString>("shown");
        const int byteLevel = static_cast<int>(engine::TokenSpelling::ByteLevel);
        const int metaspace = static_cast<int>(engine::TokenSpelling::Metaspace);
        QTest::newRow("Ġthe") << QStringLiteral("Ġthe") << byteLevel << QStringLiteral(" the");
        QTest::newRow("Ċ") << QStringLiteral("Ċ") << byteLevel << QStringLiteral("\\n");
        QTest::newRow("ĉ") << QStringLiteral("ĉ") << byteLevel << QStringLiteral("\\t");
        QTest::newRow("backslash n") << QStringLiteral("\\n") << byteLevel << QStringLiteral("\\\\n");
        QTest::newRow("é in two bytes") << QStringLiteral("Ã©") << byteLevel << QStringLiteral("é");
        QTest::newRow("half a character") << QStringLiteral("Ã") << byteLevel << QStringLiteral("\\xC3");
        QTest::newRow("added token") << QStringLiteral("<|endoftext|>") << byteLevel << QStringLiteral("<|endoftext|>");
        QTest::newRow("▁the") << QStringLiteral("▁the") << metaspace << QStringLiteral(" the");
        QTest::newRow("<0x0A>") << QStringLiteral("<0x0A>") << metaspace << QStringLiteral("\\n");
    }
    void readableTokens()
    {
        QFETCH(QString, raw);
        QFETCH(int, spelling);
        QFETCH(QString, shown);
        QCOMPARE(QString::fromStdString(
                     engine::readableToken(raw.toStdString(), static_cast<engine::TokenSpelling>(spelling))),
                 shown);
    }

    // A byte-level tokenizer.json with added tokens, for a model whose V is padded beyond it.
    void tokenizerJson()
    {
        QTemporaryDir dir;
        const QString tokenizer = write(
            dir, QStringLiteral("tokenizer.json"),
            QStringLiteral(
                "{\"version\":\"1.0\",\"added_tokens\":[{\"id\":5,\"content\":\"<|endoftext|>\",\"special\":true}],"
                "\"pre_tokenizer\":{\"type\":\"ByteLevel\",\"add_prefix_space\":false},"
                "\"decoder\":{\"type\":\"ByteLevel\"},"
                "\"model\":{\"type\":\"BPE\",\"vocab\":{\"Ġthe\":0,\"Ċ\":1,\"hello\":2,\"Ġworld\":3,\"Ã©\":4},"
                "\"merges\":[]}}")
                .toUtf8());
        const std::vector<std::uint64_t> shape{9};
        const QString logits =
            write(dir, QStringLiteral("x.npy"),
                  test::npyFile("<f4", false, "(9,)", test::arrayData(shape, false, 'f', false, fixtureValue)));
        app::LogitsFileRequest request;
        request.vocabulary = tokenizer;
        const auto read = app::readLogitsFile(logits, request);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        const std::vector<std::string> shown{" the",          "\\n",    "hello",  " world", "é",
                                             "<|endoftext|>", "<id 6>", "<id 7>", "<id 8>"};
        const std::vector<std::string> raw{"Ġthe",          "Ċ",      "hello",  "Ġworld", "Ã©",
                                           "<|endoftext|>", "<id 6>", "<id 7>", "<id 8>"};
        QCOMPARE(read->distribution.tokens, shown);
        QCOMPARE(read->rawTokens, raw);
        QCOMPARE(QString::fromStdString(read->vocabularyNote),
                 tokenizer + " names 6 of the 9 ids; 3 ids have no token (shown as <id 6> and so on)");

        // The same tokenizer with 5 logits belongs to another model.
        const QString small =
            write(dir, QStringLiteral("small.npy"),
                  test::npyFile("<f4", false, "(5,)", test::arrayData({5}, false, 'f', false, fixtureValue)));
        const auto refused = app::readLogitsFile(small, request);
        QVERIFY(!refused.ok());
        QCOMPARE(QString::fromStdString(refused.error()),
                 tokenizer + ": has 6 tokens with ids up to 5, but the logits have 5 values (ids 0 to 4): it belongs "
                             "to another model");
    }

    void textVocabulary()
    {
        QTemporaryDir dir;
        const QString vocabulary = write(dir, QStringLiteral("vocab.txt"), "users\r\ndata\nitems\n");
        const QString logits = write(dir, QStringLiteral("x.txt"), "3\n2\n1.5\n1\n");
        app::LogitsFileRequest request;
        request.vocabulary = vocabulary;
        const auto read = app::readLogitsFile(logits, request);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        QCOMPARE(read->distribution.tokens, (std::vector<std::string>{"users", "data", "items", "<id 3>"}));
        QVERIFY(read->rawTokens.empty());
        // A CSV file names its tokens already.
        const QString csv = write(dir, QStringLiteral("x.csv"), "a,1\nb,2\nc,3\n");
        const auto both = app::readLogitsFile(csv, request);
        QVERIFY(!both.ok());
        QCOMPARE(QString::fromStdString(both.error()),
                 vocabulary + ": --vocabulary given, but the logits file names its tokens already");
    }

    // An experiment file's `file` distribution reads a dump's row with its vocabulary, writes
    // the keys back, and its provenance names the row and both files' SHA-256.
    void experimentFileDistribution()
    {
        QTemporaryDir dir;
        const QByteArray npy =
            test::npyFile("<f4", false, test::pythonShape(k2d), test::arrayData(k2d, false, 'f', false, fixtureValue));
        write(dir, QStringLiteral("dump.npy"), npy);
        const QByteArray vocabulary = "a\nb\nc\n";
        write(dir, QStringLiteral("vocab.txt"), vocabulary);
        const QJsonObject json{{"kind", "file"}, {"path", "dump.npy"}, {"row", -1}, {"vocabulary-file", "vocab.txt"}};
        app::JsonObjectReader reader(json, QStringLiteral("distribution"));
        const app::DistributionSpec spec = app::readDistribution(reader);
        QCOMPARE(app::distributionToJson(spec), json);
        const auto read = app::resolveDistribution(spec, dir.path());
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        QCOMPARE(read->logits[0], fixtureValue(0, 2, 0));
        QCOMPARE(read->tokens, (std::vector<std::string>{"a", "b", "c", "<id 3>", "<id 4>", "<id 5>", "<id 6>"}));
        const auto sha = [](const QByteArray& b) {
            return QString::fromLatin1(QCryptographicHash::hash(b, QCryptographicHash::Sha256).toHex());
        };
        QCOMPARE(app::describeDistribution(spec, dir.path()),
                 QStringLiteral("file dump.npy sha256=%1 row=-1 vocabulary-file vocab.txt sha256=%2")
                     .arg(sha(npy), sha(vocabulary)));
    }

    void stepEntropies()
    {
        QTemporaryDir dir;
        // Step 0 uniform over 4 tokens (ln 4), step 1 one token certain (0).
        const std::vector<std::uint64_t> shape{2, 4};
        const QString path = write(
            dir, QStringLiteral("x.npy"),
            test::npyFile("<f8", false, "(2, 4)", test::arrayData(shape, false, 'd', false, [](auto, auto s, auto t) {
                              return s == 0 ? 0.0 : (t == 0 ? 0.0 : -INFINITY);
                          })));
        std::size_t total = 0;
        std::size_t done = 0;
        app::WorkControl control;
        control.started = [&](std::size_t n) { total = n; };
        control.progress = [&](std::size_t n) { done = n; };
        const auto summary = app::summarizeSteps(path, {}, 0, control);
        QVERIFY(summary.ok());
        QCOMPARE(summary->entropy.size(), std::size_t{2});
        QCOMPARE(summary->entropy[0], std::log(4.0));
        QCOMPARE(summary->entropy[1], 0.0);
        QCOMPARE(total, std::size_t{2});
        QCOMPARE(done, std::size_t{2});
        control.isCancelled = [] { return true; };
        QVERIFY(!app::summarizeSteps(path, {}, 0, control).ok());
    }
};

QTEST_GUILESS_MAIN(TestLogitsImport)
#include "tst_logits_import.moc"
