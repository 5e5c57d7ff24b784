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
target_link_libraries(foxgeese_server_core PUBLIC foxgeese_service gRPC::grpc++_reflection)

add_executable(foxgeese-server ${CMAKE_CURRENT_LIST_DIR}/server_main.cpp)
target_link_libraries(foxgeese-server PRIVATE foxgeese_server_core foxgeese_runtime)
install(TARGETS foxgeese-server RUNTIME DESTINATION bin)
