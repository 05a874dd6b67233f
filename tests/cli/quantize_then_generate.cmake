# `infergate quantize --to q4_k` writes a GGUF whose tensors are what weight_dtype q4_k computes
# at load: Q4_K where rows are whole 256-value super-blocks (tiny's 768-wide FFN down rows), Q5_0
# elsewhere (its 288-wide rows: llama.cpp's fallback for Q4_K). Generating from the file and from the preset quantized at load
# gives the same greedy text; int4-g32 as GGUF and as AWQ safetensors too. The prompt is empty (BOS alone), as export_then_generate.cmake
# explains.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

execute_process(COMMAND ${INFERGATE} quantize --model tiny --to q4_k --out ${WORK_DIR}/tiny-q4k.gguf
                OUTPUT_VARIABLE summary ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "quantize failed (${rc}): ${err}")
endif()
if(NOT summary MATCHES "6 x q4_k" OR NOT summary MATCHES "x q5_0")
  message(FATAL_ERROR "expected 6 Q4_K tensors (one FFN down per layer) and Q5_0 for the rest: ${summary}")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/generate_text.cmake)

run_generate(at_load --model tiny --weight-dtype q4_k)
run_generate(from_file --model ${WORK_DIR}/tiny-q4k.gguf)
if(NOT at_load STREQUAL from_file)
  message(FATAL_ERROR "texts differ:\nquantized at load: ${at_load}\nfrom the file: ${from_file}")
endif()
message(STATUS "${summary}same text: ${at_load}")

# Group-wise INT4 written as GGUF (Q4_1 blocks) and as AutoAWQ safetensors holds the same codes:
# both generate the same text.
foreach(format_and_out "gguf;tiny-int4.gguf" "safetensors;tiny-int4-awq")
  list(GET format_and_out 0 format)
  list(GET format_and_out 1 out)
  execute_process(COMMAND ${INFERGATE} quantize --model tiny --to int4-g32 --format ${format}
                          --out ${WORK_DIR}/${out}
                  OUTPUT_VARIABLE summary ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "quantize --to int4-g32 --format ${format} failed (${rc}): ${err}")
  endif()
endforeach()
file(READ ${WORK_DIR}/tiny-int4-awq/config.json config)
if(NOT config MATCHES "\"quant_method\": \"awq\"")
  message(FATAL_ERROR "config.json lacks AWQ's quantization_config: ${config}")
endif()
run_generate(int4_gguf --model ${WORK_DIR}/tiny-int4.gguf)
run_generate(int4_awq --model ${WORK_DIR}/tiny-int4-awq)
if(NOT int4_gguf STREQUAL int4_awq)
  message(FATAL_ERROR "texts differ:\nGGUF: ${int4_gguf}\nAWQ safetensors: ${int4_awq}")
endif()
message(STATUS "int4-g32 GGUF and AWQ safetensors, same text: ${int4_gguf}")
file(REMOVE_RECURSE ${WORK_DIR})
