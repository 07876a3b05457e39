package edgestream.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.tools.api.RecordReader;

/**
 * A kafka-console-producer reader (--line-reader edgestream.tools.Base64LineReader)
 * for binary values: each line is `[key<separator>]<base64 value>`. The key is
 * UTF-8 text (parse.key=true, key.separator, default a tab: what the console
 * consumer prints with print.key=true); the value is decoded from base64, so
 * Avro bytes arrive exactly as they were. Kafka's own LineMessageReader sends
 * each line as UTF-8 text, which corrupts binary values. A malformed line
 * stops the producer, naming its number.
 */
public final class Base64LineReader implements RecordReader {
  private String topic;
  private boolean parseKey;
  private String keySeparator = "\t";

  @Override
  public void configure(Map<String, ?> props) {
    topic = (String) props.get("topic");
    parseKey = "true".equalsIgnoreCase(String.valueOf(props.get("parse.key")));
    Object sep = props.get("key.separator");
    if (sep != null) keySeparator = String.valueOf(sep);
  }

  @Override
  public Iterator<ProducerRecord<byte[], byte[]>> readRecords(InputStream in) {
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    return new Iterator<>() {
      private String next;
      private int lineNumber;

      @Override
      public boolean hasNext() {
        try {
          while (next == null) {
            String line = reader.readLine();
            if (line == null) return false;
            lineNumber++;
            if (!line.isEmpty()) next = line;
          }
          return true;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public ProducerRecord<byte[], byte[]> next() {
        if (!hasNext()) throw new NoSuchElementException();
        String line = next;
        next = null;
        byte[] key = null;
        String value = line;
        if (parseKey) {
          int at = line.indexOf(keySeparator);
          if (at < 0) throw new IllegalArgumentException("line " + lineNumber + ": no key separator '" + keySeparator + "' (parse.key=true)");
          key = line.substring(0, at).getBytes(StandardCharsets.UTF_8);
          value = line.substring(at + keySeparator.length());
        }
        try {
          return new ProducerRecord<>(topic, key, Base64.getDecoder().decode(value.trim()));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("line " + lineNumber + ": the value is not base64: " + e.getMessage(), e);
        }
      }
    };
  }
}
