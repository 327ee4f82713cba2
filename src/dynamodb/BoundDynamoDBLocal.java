import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local listening on one address. Its jar has no option for that (its Jetty server
 * listens on every interface), so this builds the server from the usual command line and sets
 * the host of its connector before it starts, and says when it listens.
 *
 * Usage: java -cp DIR:DynamoDBLocal.jar BoundDynamoDBLocal HOST [DynamoDB Local's options...]
 */
public class BoundDynamoDBLocal {
  public static void main(String[] args) throws Exception {
    String host = args[0];
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 1, args.length));
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    for (Connector connector : ((Server) field.get(proxy)).getConnectors()) {
      ((ServerConnector) connector).setHost(host);
    }
    proxy.start();
    // Its port is bound: the line the starting process waits for (compileLauncher.ts, LAUNCHER_LISTENING).
    System.out.println("BoundDynamoDBLocal: listening");
    System.out.flush();
  }
}
