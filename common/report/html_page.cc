#include "common/report/html_page.h"

#include "common/report/markup_escape.h"

namespace infergate {

namespace {

constexpr const char* kStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d1d1f;margin:0;background:#f6f7f9}
main{max-width:1360px;margin:0 auto;padding:16px 24px 48px}
h1{font-size:22px;margin:8px 0 12px}
h2{font-size:17px;margin:28px 0 10px;border-bottom:1px solid #d0d4da;padding-bottom:4px}
nav{font-size:13px;margin-bottom:12px}
nav a{margin-right:14px;color:#0b57a4;text-decoration:none}
.banner{font-size:20px;font-weight:700;padding:12px 18px;border-radius:6px;color:#fff}
.banner.pass{background:#1e7b34}.banner.regressed{background:#b00020}
.banner.inconclusive{background:#b35c00}.banner.incomparable{background:#5f6368}
.banner.run{background:#0b57a4}
table{border-collapse:collapse;background:#fff;margin:6px 0;font-size:13px}
th,td{border:1px solid #d0d4da;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eef0f3}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.v-regressed td{background:#fde8ea}tr.v-improved td{background:#e6f4ea}
tr.v-inconclusive td{background:#fff4e0}tr.diff td{background:#fff4e0}
.verdict{font-weight:700}.muted{color:#6b7280}
.figures{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0;background:#fff;border:1px solid #d0d4da;border-radius:4px}
svg{display:block;max-width:100%;height:auto}
.note{color:#6b4e00;background:#fff8e1;border-left:4px solid #e0a800;padding:6px 10px}
pre{background:#fff;border:1px solid #d0d4da;padding:8px 12px;white-space:pre-wrap;overflow-wrap:anywhere}
ul.warnings li{color:#6b4e00}
)css";

}  // namespace

std::string html_document(const std::string& title, const std::string& header,
                          const std::vector<HtmlSection>& sections) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<title>" + escape_markup(title) + "</title>\n<style>" + kStyle + "</style>\n";
  html += "</head>\n<body>\n<main>\n";
  html += "<h1>" + escape_markup(title) + "</h1>\n<nav>";
  for (const HtmlSection& s : sections) {
    html += "<a href=\"#" + escape_markup(s.id) + "\">" + escape_markup(s.title) + "</a>";
  }
  html += "</nav>\n" + header;
  for (const HtmlSection& s : sections) {
    html += "<section id=\"" + escape_markup(s.id) + "\">\n<h2>" + escape_markup(s.title) +
            "</h2>\n" + s.body + "</section>\n";
  }
  return html + "</main>\n</body>\n</html>\n";
}

}  // namespace infergate
