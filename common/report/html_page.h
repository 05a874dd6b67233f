// The frame of every HTML report: one self-contained document (inline CSS, no script, no
// external fonts, images or links to fetch) with a title, a section menu and the sections.
#pragma once

#include <string>
#include <vector>

namespace infergate {

struct HtmlSection {
  std::string id;     // anchor, e.g. "rules"
  std::string title;  // heading and menu entry
  std::string body;   // HTML
};

// `title` is text (escaped here); `header` and the sections' bodies are HTML.
std::string html_document(const std::string& title, const std::string& header,
                          const std::vector<HtmlSection>& sections);

}  // namespace infergate
