# Redoc's standalone bundle without the one request it makes elsewhere: its
# sidebar credit ("API docs by Redocly") shows a logo from cdn.redoc.ly,
# which the docs page's Content-Security-Policy blocks and the browser then
# reports as an error on every visit. The credit stays; its logo becomes an
# empty SVG in a data: URL, which the policy allows. Stops the build when the
# URL is not in the bundle, so that a Redoc release that moves it is looked at.
# Usage: cmake -DINPUT=redoc.standalone.js -DOUTPUT=out.js -P offline_redoc.cmake
set(logo "https://cdn.redoc.ly/redoc/logo-mini.svg")
set(empty_svg "data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27/%3E")
file(READ "${INPUT}" bundle)
string(FIND "${bundle}" "${logo}" at)
if(at EQUAL -1)
    message(FATAL_ERROR "offline_redoc: ${INPUT} no longer has ${logo}; see web/docs/offline_redoc.cmake")
endif()
string(REPLACE "${logo}" "${empty_svg}" bundle "${bundle}")
string(FIND "${bundle}" "https://cdn." elsewhere)
if(NOT elsewhere EQUAL -1)
    message(FATAL_ERROR "offline_redoc: ${INPUT} loads something else from a CDN")
endif()
file(WRITE "${OUTPUT}" "${bundle}")
