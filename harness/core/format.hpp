// Number and string formatting shared by the bench's reports.
#pragma once

#include <string>

namespace kl::bench {

// `digits` decimals, fixed notation: fixed(3.14159, 2) == "3.14".
std::string fixed(double value, int digits);
// Three significant figures without exponent for ordinary magnitudes: 51.4, 0.0179, 2935.
std::string sig3(double value);
// A ratio as a percentage with three significant figures: percent(0.9041) == "90.4%".
std::string percent(double ratio);
// As a person would type it (%g): 4, 0.0713, 1000. For thresholds from the gates file.
std::string plain(double value);
// A JSON string literal (quotes included), control characters escaped.
std::string json_string(const std::string& text);
// A JSON number with 6 significant digits; null for NaN or infinity (JSON has neither).
std::string json_number(double value);

}  // namespace kl::bench
