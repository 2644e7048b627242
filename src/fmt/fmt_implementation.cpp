// fmt's implementation, compiled once for the lean build (RLOCK_LEAN_BINARY in CMakeLists.txt).
// Debian ships it only in libfmt.so; header-only fmt, the other way to link it in, compiled it again
// in every file that formats, about 6 s each at -O2 -g, some 40% of a clean build. The templates
// that fmt/format.h and fmt/core.h declare but leave to the library are instantiated here.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

template locale_ref::locale_ref(const std::locale& loc);
template auto locale_ref::get<std::locale>() const -> std::locale;

template auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl(locale_ref) -> char;
template void buffer<char>::append(const char*, const char*);

}  // namespace detail
FMT_END_NAMESPACE
