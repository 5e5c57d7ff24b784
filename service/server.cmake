# The game logic, its gRPC face and the server executable. Included from
# service/CMakeLists.txt.
find_package(OpenSSL REQUIRED)
find_package(spdlog CONFIG REQUIRED)

add_library(foxgeese_service STATIC
    ${CMAKE_CURRENT_LIST_DIR}/game_service.cpp
    ${CMAKE_CURRENT_LIST_DIR}/game_views.cpp
    ${CMAKE_CURRENT_LIST_DIR}/grpc_game_service.cpp
    ${CMAKE_CURRENT_LIST_DIR}/grpc_watch_stream.cpp
    ${CMAKE_CURRENT_LIST_DIR}/metrics.cpp
    ${CMAKE_CURRENT_LIST_DIR}/secrets.cpp
    ${CMAKE_CURRENT_LIST_DIR}/variant_catalog.cpp
    ${CMAKE_CURRENT_LIST_DIR}/variant_texts.cpp
    ${CMAKE_CURRENT_LIST_DIR}/watch_hub.cpp
)
target_include_directories(foxgeese_service PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(foxgeese_service PUBLIC
    foxgeese_engine foxgeese_storage foxgeese_proto OpenSSL::Crypto spdlog::spdlog)

find_package(gRPC CONFIG REQUIRED)
add_library(foxgeese_server_core STATIC ${CMAKE_CURRENT_LIST_DIR}/game_server.cpp)
target_link_libraries(foxgeese_server_core PUBLIC foxgeese_service foxgeese_http gRPC::grpc++_reflection)

add_executable(foxgeese-server ${CMAKE_CURRENT_LIST_DIR}/server_main.cpp)
target_link_libraries(foxgeese-server PRIVATE foxgeese_server_core foxgeese_runtime)
install(TARGETS foxgeese-server RUNTIME DESTINATION bin)

# The REST/JSON server: Boost.Beast (header-only) over the same GameService.
find_package(Boost 1.74 REQUIRED)
find_package(Threads REQUIRED)
add_library(foxgeese_http STATIC
    ${CMAKE_CURRENT_LIST_DIR}/http_server.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rest_json.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rest_routes.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rest_watch_stream.cpp
)
# std::string_view throughout Beast, so its strings mix with ours.
target_compile_definitions(foxgeese_http PUBLIC BOOST_BEAST_USE_STD_STRING_VIEW)
target_link_libraries(foxgeese_http PUBLIC foxgeese_service Boost::headers Threads::Threads)
