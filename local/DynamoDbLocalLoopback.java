// Starts Amazon's DynamoDB Local listening on 127.0.0.1 only (local/dynamodb.ts runs it with
// `java <this file>`, Java's single-file source launcher, DynamoDBLocal.jar on the class path).
//
// DynamoDB Local has no option for the address it listens on: its server is a Jetty `Server(port)`,
// which binds every interface, so anyone on the network could read and write the local tables.
// This launcher builds the server exactly as DynamoDBLocal.jar's own main class does, from the
// same command-line options, then sets the host of its connector to 127.0.0.1 before starting it.
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.CommandLineInput;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class DynamoDbLocalLoopback {
  private static final String HOST = "127.0.0.1";

  public static void main(String[] args) throws Exception {
    CommandLineInput input = new CommandLineInput(args);
    if (!input.init()) return;
    DynamoDBProxyServer proxy = ServerRunner.createServer(input);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost(HOST);
    proxy.start();
    System.out.println("DynamoDB Local listening on " + HOST + ":" + input.getPort());
    proxy.join();
  }
}
