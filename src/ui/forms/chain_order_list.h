// The chain's stages in the order they run, reorderable by drag and drop (or Ctrl+Up/Ctrl+Down on
// the selected stage). Stages that do nothing with their current values are shown dimmed; a
// reorder is reported once, after the move, as the new list of stage names.
#pragma once

#include <QListWidget>

#include <string>
#include <vector>

namespace logitlab::ui {

class ChainOrderList : public QListWidget {
    Q_OBJECT
public:
    explicit ChainOrderList(QWidget* parent = nullptr);

    // Shows `order` (stage names); `active` are drawn normally, the rest dimmed. Emits nothing.
    void setStages(const std::vector<std::string>& order, const std::vector<std::string>& active);
    std::vector<std::string> order() const;
    // Moves the stage at `row` by `delta` places, as a drag would; returns false at the ends.
    bool moveStage(int row, int delta);

signals:
    void orderChanged(const std::vector<std::string>& order);

protected:
    void dropEvent(QDropEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void reportIfChanged();

    std::vector<std::string> m_shown;   // the order as last set or reported
    std::vector<std::string> m_active;  // the stages last shown active
    bool m_updating = false;
};

}  // namespace logitlab::ui
