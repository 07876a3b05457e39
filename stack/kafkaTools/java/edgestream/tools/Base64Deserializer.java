package edgestream.tools;

import java.util.Base64;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Prints a record's bytes as one base64 line, for kafka-console-consumer
 * (--property value.deserializer=edgestream.tools.Base64Deserializer). The
 * project's values are binary Avro with the Confluent wire header; printed raw
 * they cannot be told apart or piped back, since they may hold newlines and
 * bytes that are not UTF-8.
 */
public final class Base64Deserializer implements Deserializer<String> {
  @Override
  public String deserialize(String topic, byte[] data) {
    return data == null ? null : Base64.getEncoder().encodeToString(data);
  }
}
