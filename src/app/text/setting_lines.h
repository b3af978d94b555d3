// The junk-risk page's settings box: one decoding setting per line, read and written here so the
// page holds no grammar of its own.
//
//     [label: ] [preset: ] chain
//
// The separators are a colon and a blank (": "), so a chain's own colons
// ("xtc:probability=0.5:threshold=0.1") stay in the chain.
// `chain` is the zoo's chain text (engine/sampler/chain_text.h: "top-k=40, min-p=0.05, temperature=0.8");
// `preset` one of lesson, llama.cpp, hf, vllm (default lesson). A lesson line with only
// temperature, top-k and top-p is the lesson's own setting, as the file's lesson keys are.
#pragma once

#include "app/io/experiment_file.h"
#include "engine/core/result.h"

#include <QList>
#include <QString>

namespace logitlab::app {

// Errors name the line: "Settings, line 2: ...".
engine::Result<QList<SettingSpec>> settingsFromLines(const QString& text);
QString settingsToLines(const QList<SettingSpec>& settings);

}  // namespace logitlab::app
